// The customer screen's tools (server component): the extraction rate limit (support sets it with a reason; the next
// /extract call obeys it), granting a package with a reason (extractable or dedicated IPs, grant-package-form.tsx), the assigned seller and the commission ledger.
import { formatDateTime, formatFen } from '../../../../../lib/format';
import { load } from '../../../../../server/page-data';
import { GrantPackageForm } from './grant-package-form';
import { Section } from '../../../_components/parts';
import { RecordForm } from '../../../_components/record-form';

const COMMISSION_STATE: Record<number, string> = { 1: '可提现', 2: '提现中/已提现', 3: '已冲回' };

export async function CustomerTools({ userId }: { userId: number }) {
  const t = await load('Admin.CustomerTools', { userId }, false);
  if (!t) return null;
  const c = t.commission;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Section title="提取频率">
        <p className="mb-3 text-sm text-slate-600" data-testid="customer-rate-limit">
          当前：每秒最多 {t.rateLimit ?? 10} 次{t.rateLimit === null ? '（尚未开通API，默认值）' : ''}
          ；修改后下一次提取即生效。
        </p>
        <RecordForm
          action="Admin.CustomerRateLimit"
          fields={[
            { name: 'rateLimit', label: '每秒次数（1-200）', kind: 'int', defaultValue: t.rateLimit ?? 10 },
            { name: 'reason', label: '限流原因（写入操作日志）', kind: 'text', maxLength: 200 },
          ]}
          fixed={{ userId }}
          submitLabel="保存频率"
          done="提取频率已修改"
          testId="rate-limit-form"
          narrow
        />
      </Section>
      <Section title="赠送套餐">
        <GrantPackageForm userId={userId} regions={t.dedicatedRegions} />
      </Section>
      <Section title="推广佣金">
        <p className="mb-2 text-sm text-slate-600">
          所属销售：
          {t.seller ? (
            <a href={`/admin/sellers?seller=${t.seller.id}`} className="text-brand-700 hover:underline">
              {t.seller.name}（{t.seller.code}）
            </a>
          ) : (
            '无'
          )}
        </p>
        <p className="mb-2 text-sm text-slate-600" data-testid="commission-summary">
          可提现 {formatFen(c.summary.availableFen)} · 提现中 {formatFen(c.summary.inWithdrawalFen)} · 已提现{' '}
          {formatFen(c.summary.withdrawnFen)} · 累计 {formatFen(c.summary.totalFen)}
        </p>
        <ul className="divide-y divide-slate-100 text-xs" data-testid="commission-ledger">
          {c.list.length === 0 && <li className="py-1.5 text-slate-400">没有佣金记录</li>}
          {c.list.map((e) => (
            <li key={e.id} className="flex flex-wrap justify-between gap-x-3 py-1.5">
              <span className="break-all">
                {formatDateTime(e.createdAt)} · {e.inviteePhone} · {e.orderNo}
              </span>
              <span>
                {formatFen(e.amountFen)}（{(e.rateBp / 100).toFixed(1)}% × {formatFen(e.baseFen)}）·{' '}
                {COMMISSION_STATE[e.state] ?? e.state}
              </span>
            </li>
          ))}
        </ul>
        {c.total > c.list.length && <p className="mt-1 text-xs text-slate-400">共 {c.total} 条，显示最新 20 条</p>}
      </Section>
    </div>
  );
}
