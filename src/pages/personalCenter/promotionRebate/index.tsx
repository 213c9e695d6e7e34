// /personalCenter/promotionRebate: the invitation link and material, commission balances and rules, withdrawals,
// invitees and the commission ledger (?tab=invite|commission|withdraw, ?page=n).
import { TrustPageHead } from '../../../components/trust/page-head';
import { formatDateTime, formatFen } from '../../../lib/format';
import { currentMineInfo } from '../../../server/api-server';
import { loadTrust } from '../../../server/trust-page-data';
import { CopyButton, OpenPromotion, WithdrawForm } from './_components/promotion-tools';

interface Promotion {
  opened: boolean;
  link: string | null;
  rates: Record<string, { firstBp: number; recurringBp: number }>;
  minWithdrawalFen: number;
  summary: { availableFen: number; inWithdrawalFen: number; withdrawnFen: number; totalFen: number };
}
interface Page<T> {
  total: number;
  list: T[];
}
type Invitee = {
  inviteePhone: string;
  invitedAt: number;
  isVerified: boolean;
  orderCount: number;
  commissionFen: number;
};
type Entry = {
  id: number;
  inviteePhone: string;
  orderNo: string;
  baseFen: number;
  rateBp: number;
  amountFen: number;
  isFirst: boolean;
  state: number;
  createdAt: number;
};
type Withdrawal = { id: number; amountFen: number; accountNo: string; state: number; createdAt: number };

const PRODUCT: Record<string, string> = { 10: '短效动态IP', 40: '长效静态IP', 30: '固定IP', 50: '优质IP' };
const ENTRY_STATE: Record<number, string> = { 1: '可提现', 2: '提现中/已提现', 3: '已冲销' };
const W_STATE: Record<number, string> = { 1: '待审核', 2: '待打款', 3: '已打款', 4: '已驳回' };
const PAGE_SIZE = 10;
const pct = (bp: number) => `${bp / 100}%`;

export default async function PromotionRebatePage({ query }: { query: string }) {
  const info = await currentMineInfo();
  if (!info) return null;
  const q = new URLSearchParams(query);
  const tab = ['invite', 'commission', 'withdraw'].includes(q.get('tab') ?? '') ? (q.get('tab') as string) : 'invite';
  const page = Math.max(1, Math.min(10_000, Number(q.get('page')) || 1));
  const empty: Promotion = {
    opened: false,
    link: null,
    rates: {},
    minWithdrawalFen: 5000,
    summary: { availableFen: 0, inWithdrawalFen: 0, withdrawnFen: 0, totalFen: 0 },
  };
  const [promo, material, invites, entries, withdrawals] = await Promise.all([
    loadTrust<Promotion>('UserPromotion.GetUserPromotion', {}, empty),
    loadTrust<{ list: { id: number; title: string; content: string }[] }>(
      'Config.UserPromotionMaterial',
      {},
      { list: [] },
    ),
    tab === 'invite'
      ? loadTrust<Page<Invitee>>(
          'UserPromotion.GetInvitationDetails',
          { page, pageSize: PAGE_SIZE },
          { total: 0, list: [] },
        )
      : null,
    tab === 'commission'
      ? loadTrust<Page<Entry>>(
          'UserPromotion.GetCommissionDetails',
          { page, pageSize: PAGE_SIZE },
          { total: 0, list: [] },
        )
      : null,
    tab === 'withdraw' ? loadTrust<{ list: Withdrawal[] }>('UserPromotion.GetWithdrawals', {}, { list: [] }) : null,
  ]);
  const s = promo.summary;
  const total = invites?.total ?? entries?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const tabs = [
    { key: 'invite', label: '邀请明细' },
    { key: 'commission', label: '佣金明细' },
    { key: 'withdraw', label: '提现记录' },
  ];
  return (
    <div className="space-y-5" data-testid="promotion-page">
      <TrustPageHead trail={[{ label: '财务' }, { label: '推广返利' }]} title="推广返利" />
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
                      <p className="flex-1 text-sm break-all text-slate-600">{text}</p>
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
          <ul className="mt-2 space-y-1">
            {Object.entries(promo.rates).map(([type, r]) => (
              <li key={type}>
                {PRODUCT[type] ?? type}：首单 {pct(r.firstBp)}，后续订单 {pct(r.recurringBp)}
              </li>
            ))}
            <li className="text-slate-500">
              按实付金额计算，向下取整到分；邀请关系一年内有效；退款订单佣金冲销；满{formatFen(promo.minWithdrawalFen)}
              可提现。
            </li>
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
          <table className="w-full min-w-[560px] text-left text-sm">
            {invites && (
              <>
                <thead className="text-xs text-slate-500">
                  <tr>
                    <th className="py-2">被邀请人</th>
                    <th>注册时间</th>
                    <th>实名</th>
                    <th>付款订单</th>
                    <th className="text-right">贡献佣金</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {invites.list.map((i) => (
                    <tr key={`${i.inviteePhone}-${i.invitedAt}`}>
                      <td className="py-2">{i.inviteePhone}</td>
                      <td>{formatDateTime(i.invitedAt)}</td>
                      <td>{i.isVerified ? '已实名' : '未实名'}</td>
                      <td>{i.orderCount}</td>
                      <td className="text-right">{formatFen(i.commissionFen)}</td>
                    </tr>
                  ))}
                  {invites.list.length === 0 && (
                    <tr>
                      <td colSpan={5} className="py-8 text-center text-slate-400">
                        暂无邀请记录
                      </td>
                    </tr>
                  )}
                </tbody>
              </>
            )}
            {entries && (
              <>
                <thead className="text-xs text-slate-500">
                  <tr>
                    <th className="py-2">时间</th>
                    <th>被邀请人</th>
                    <th>订单号</th>
                    <th>实付</th>
                    <th>比例</th>
                    <th>状态</th>
                    <th className="text-right">佣金</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {entries.list.map((e) => (
                    <tr key={e.id}>
                      <td className="py-2">{formatDateTime(e.createdAt)}</td>
                      <td>{e.inviteePhone}</td>
                      <td className="font-mono text-xs">{e.orderNo}</td>
                      <td>{formatFen(e.baseFen)}</td>
                      <td>
                        {pct(e.rateBp)}
                        {e.isFirst ? '（首单）' : ''}
                      </td>
                      <td>{ENTRY_STATE[e.state]}</td>
                      <td className={`text-right ${e.amountFen < 0 ? 'text-red-600' : ''}`}>
                        {formatFen(e.amountFen)}
                      </td>
                    </tr>
                  ))}
                  {entries.list.length === 0 && (
                    <tr>
                      <td colSpan={7} className="py-8 text-center text-slate-400">
                        暂无佣金记录
                      </td>
                    </tr>
                  )}
                </tbody>
              </>
            )}
            {withdrawals && (
              <>
                <thead className="text-xs text-slate-500">
                  <tr>
                    <th className="py-2">申请时间</th>
                    <th>收款账号</th>
                    <th>状态</th>
                    <th className="text-right">金额</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {withdrawals.list.map((w) => (
                    <tr key={w.id}>
                      <td className="py-2">{formatDateTime(w.createdAt)}</td>
                      <td>{w.accountNo}</td>
                      <td>{W_STATE[w.state]}</td>
                      <td className="text-right">{formatFen(w.amountFen)}</td>
                    </tr>
                  ))}
                  {withdrawals.list.length === 0 && (
                    <tr>
                      <td colSpan={4} className="py-8 text-center text-slate-400">
                        暂无提现记录
                      </td>
                    </tr>
                  )}
                </tbody>
              </>
            )}
          </table>
        </div>
        {tab !== 'withdraw' && pages > 1 && (
          <nav className="mt-4 flex justify-end gap-2 text-sm" aria-label="分页">
            {page > 1 && (
              <a className="btn-ghost" href={`/personalCenter/promotionRebate?tab=${tab}&page=${page - 1}`}>
                上一页
              </a>
            )}
            <span className="px-2 py-2 text-slate-500">
              {page} / {pages}
            </span>
            {page < pages && (
              <a className="btn-ghost" href={`/personalCenter/promotionRebate?tab=${tab}&page=${page + 1}`}>
                下一页
              </a>
            )}
          </nav>
        )}
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
