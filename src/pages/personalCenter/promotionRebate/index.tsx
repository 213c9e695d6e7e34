// /personalCenter/promotionRebate: the invitation link and material, commission balances and rules, withdrawals,
// invitees and the commission ledger (?tab=invite|commission|withdraw, ?page=n).
import { Cell, DataBody, DataHead, DataRow, DataTable, Th } from '../../../components/data-table';
import { Pager } from '../../../components/pager';
import { PageHead } from '../../../components/page-head';
import type { ActionOutput } from '../../../lib/api-core';
import {
  bpPercent,
  COMMISSION_RATES,
  COMMISSION_STATE_TEXT,
  commissionRateRows,
  commissionRuleLines,
  MIN_WITHDRAWAL_FEN,
  WITHDRAWAL_STATE_TEXT,
} from '../../../lib/commission-rules';
import { formatDateTime, formatFen } from '../../../lib/format';
import { currentMineInfo } from '../../../server/api-server';
import { load } from '../../../server/page-data';
import { CopyButton, OpenPromotion, WithdrawForm } from './_components/promotion-tools';

type Promotion = ActionOutput<'UserPromotion.GetUserPromotion'>;

const PAGE_SIZE = 10;
const pct = bpPercent;

export default async function PromotionRebatePage({ query }: { query: string }) {
  const info = await currentMineInfo();
  if (!info) return null;
  const q = new URLSearchParams(query);
  const tab = ['invite', 'commission', 'withdraw'].includes(q.get('tab') ?? '') ? (q.get('tab') as string) : 'invite';
  const page = Math.max(1, Math.min(10_000, Number(q.get('page')) || 1));
  const empty: Promotion = {
    opened: false,
    code: null,
    link: null,
    rates: COMMISSION_RATES,
    minWithdrawalFen: MIN_WITHDRAWAL_FEN,
    summary: { availableFen: 0, inWithdrawalFen: 0, withdrawnFen: 0, totalFen: 0 },
  };
  const [promo, material, invites, entries, withdrawals] = await Promise.all([
    load('UserPromotion.GetUserPromotion', {}, empty),
    load('Config.UserPromotionMaterial', {}, { list: [] }),
    tab === 'invite'
      ? load('UserPromotion.GetInvitationDetails', { page, pageSize: PAGE_SIZE }, { total: 0, list: [] })
      : null,
    tab === 'commission'
      ? load('UserPromotion.GetCommissionDetails', { page, pageSize: PAGE_SIZE }, { total: 0, list: [] })
      : null,
    tab === 'withdraw' ? load('UserPromotion.GetWithdrawals', {}, { list: [] }) : null,
  ]);
  const s = promo.summary;
  const total = invites?.total ?? entries?.total ?? 0;
  const tabs = [
    { key: 'invite', label: '邀请明细' },
    { key: 'commission', label: '佣金明细' },
    { key: 'withdraw', label: '提现记录' },
  ];
  return (
    <div className="space-y-5" data-testid="promotion-page">
      <PageHead trail={[{ label: '财务' }, { label: '推广返利' }]} title="推广返利" />
      <section className="card p-6">
        {promo.opened && promo.link ? (
          <div className="space-y-4">
            <div>
              <p className="text-sm text-slate-500">我的专属推广链接（好友30天内通过链接注册即绑定邀请关系）</p>
              <div className="mt-2 flex items-center gap-2">
                <code
                  className="min-w-0 flex-1 truncate rounded-lg bg-slate-50 px-3 py-2 text-sm"
                  data-testid="promotion-link"
                >
                  {promo.link}
                </code>
                <CopyButton text={promo.link} label="复制链接" />
              </div>
            </div>
            {material.list.length > 0 && (
              <ul className="grid gap-3 md:grid-cols-2">
                {material.list.map((m) => {
                  const text = m.content.replace('{link}', promo.link ?? '');
                  return (
                    <li key={m.id} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3">
                      <p className="text-sm font-medium text-ink">{m.title}</p>
                      <p className="flex-1 text-sm text-slate-600 [overflow-wrap:anywhere]">{text}</p>
                      <div>
                        <CopyButton text={text} label="复制文案" />
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        ) : (
          <div className="flex flex-col items-start gap-3 md:flex-row md:items-center md:justify-between">
            <div>
              <p className="font-medium text-ink">邀请好友，赚取佣金</p>
              <p className="text-sm text-slate-500">好友通过你的链接注册并付款，你可获得订单实付金额一定比例的佣金</p>
            </div>
            <OpenPromotion />
          </div>
        )}
      </section>
      <section className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {[
          ['可提现', s.availableFen],
          ['提现中', s.inWithdrawalFen],
          ['已提现', s.withdrawnFen],
          ['累计佣金', s.totalFen],
        ].map(([label, fen]) => (
          <div key={label as string} className="card p-4">
            <p className="text-xs text-slate-500">{label}</p>
            <p className="mt-1 text-xl font-semibold text-ink">{formatFen(fen as number)}</p>
          </div>
        ))}
      </section>
      <section className="card flex flex-col gap-4 p-6 md:flex-row md:items-start md:justify-between">
        <div className="text-sm text-slate-600">
          <p className="font-medium text-ink">佣金规则</p>
          <ul className="mt-2 space-y-1" data-testid="commission-rates">
            {commissionRateRows(promo.rates).map((r) => (
              <li key={r.productType}>
                {r.label}：首单 {r.first}，后续订单 {r.recurring}
              </li>
            ))}
          </ul>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-xs leading-5 text-slate-500" data-testid="commission-rules">
            {commissionRuleLines(promo.minWithdrawalFen).map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </div>
        <WithdrawForm
          availableFen={s.availableFen}
          minFen={promo.minWithdrawalFen}
          verified={info.identityLabel !== '未认证'}
        />
      </section>
      <section className="card p-6">
        <nav className="mb-4 flex gap-1 border-b border-slate-200" aria-label="明细">
          {tabs.map((t) => (
            <a
              key={t.key}
              href={`/personalCenter/promotionRebate?tab=${t.key}`}
              aria-current={t.key === tab ? 'page' : undefined}
              className={`-mb-px border-b-2 px-4 py-2 text-sm ${t.key === tab ? 'border-brand-600 font-medium text-brand-700' : 'border-transparent text-slate-500'}`}
            >
              {t.label}
            </a>
          ))}
        </nav>
        <div className="overflow-x-auto">
          <DataTable className="md:min-w-[560px]">
            {invites && (
              <>
                <DataHead className="text-xs text-slate-500">
                  <tr>
                    <Th className="py-2">被邀请人</Th>
                    <Th>注册时间</Th>
                    <Th>实名</Th>
                    <Th>付款订单</Th>
                    <Th className="text-right">贡献佣金</Th>
                  </tr>
                </DataHead>
                <DataBody className="divide-y divide-slate-100">
                  {invites.list.map((i) => (
                    <DataRow key={`${i.inviteePhone}-${i.invitedAt}`}>
                      <Cell kind="title" className="py-2 max-md:font-medium max-md:text-ink">
                        {i.inviteePhone}
                      </Cell>
                      <Cell label="注册时间">{formatDateTime(i.invitedAt)}</Cell>
                      <Cell label="实名">{i.isVerified ? '已实名' : '未实名'}</Cell>
                      <Cell label="付款订单">{i.orderCount}</Cell>
                      <Cell label="贡献佣金" className="text-right">
                        {formatFen(i.commissionFen)}
                      </Cell>
                    </DataRow>
                  ))}
                </DataBody>
              </>
            )}
            {entries && (
              <>
                <DataHead className="text-xs text-slate-500">
                  <tr>
                    <Th className="py-2">时间</Th>
                    <Th>被邀请人</Th>
                    <Th>订单号</Th>
                    <Th>实付</Th>
                    <Th>比例</Th>
                    <Th>状态</Th>
                    <Th className="text-right">佣金</Th>
                  </tr>
                </DataHead>
                <DataBody className="divide-y divide-slate-100">
                  {entries.list.map((e) => (
                    <DataRow key={e.id}>
                      <Cell kind="title" className="py-2 max-md:font-medium max-md:text-ink">
                        {formatDateTime(e.createdAt)}
                      </Cell>
                      <Cell label="被邀请人">{e.inviteePhone}</Cell>
                      <Cell label="订单号" className="font-mono text-xs">
                        {e.orderNo}
                      </Cell>
                      <Cell label="实付">{formatFen(e.baseFen)}</Cell>
                      <Cell label="比例">
                        {pct(e.rateBp)}
                        {e.isFirst ? '（首单）' : ''}
                      </Cell>
                      <Cell label="状态">{COMMISSION_STATE_TEXT[e.state]}</Cell>
                      <Cell label="佣金" className={`text-right ${e.amountFen < 0 ? 'text-red-600' : ''}`}>
                        {formatFen(e.amountFen)}
                      </Cell>
                    </DataRow>
                  ))}
                </DataBody>
              </>
            )}
            {withdrawals && (
              <>
                <DataHead className="text-xs text-slate-500">
                  <tr>
                    <Th className="py-2">申请时间</Th>
                    <Th>收款账号</Th>
                    <Th>状态</Th>
                    <Th className="text-right">金额</Th>
                  </tr>
                </DataHead>
                <DataBody className="divide-y divide-slate-100">
                  {withdrawals.list.map((w) => (
                    <DataRow key={w.id}>
                      <Cell kind="title" className="py-2 max-md:font-medium max-md:text-ink">
                        {formatDateTime(w.createdAt)}
                      </Cell>
                      <Cell label="收款账号">{w.accountNo}</Cell>
                      <Cell label="状态">{WITHDRAWAL_STATE_TEXT[w.state]}</Cell>
                      <Cell label="金额" className="text-right">
                        {formatFen(w.amountFen)}
                      </Cell>
                    </DataRow>
                  ))}
                </DataBody>
              </>
            )}
          </DataTable>
        </div>
        {/* Outside the scrolling table, so the message stays centred in the card on phones. */}
        {(invites ?? entries ?? withdrawals)?.list.length === 0 && (
          <p className="py-8 text-center text-sm text-slate-400">
            {invites ? '暂无邀请记录' : entries ? '暂无佣金记录' : '暂无提现记录'}
          </p>
        )}
        {tab !== 'withdraw' && (invites ?? entries) && (
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={total}
            href={(p) => `/personalCenter/promotionRebate?tab=${tab}&page=${p}`}
          />
        )}
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
