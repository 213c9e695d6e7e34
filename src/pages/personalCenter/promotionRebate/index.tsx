import { PageHead } from '../../../components/page-head';
import type { ActionOutput } from '../../../lib/api-core';
import {
  COMMISSION_RATES,
  commissionRateRows,
  commissionRuleLines,
  MIN_WITHDRAWAL_FEN,
} from '../../../lib/commission-rules';
import { coverageFigures, fillMaterialText } from '../../../lib/coverage-figures';
import { formatFen } from '../../../lib/format';
import { currentMineInfo } from '../../../server/api-server';
import { load } from '../../../server/page-data';
import { loadCoverage } from '../../../server/regions-page';
import { PromotionLedger } from './_components/promotion-ledger';
import { CopyButton, OpenPromotion, WithdrawForm } from './_components/promotion-tools';

type Promotion = ActionOutput<'UserPromotion.GetUserPromotion'>;

const PAGE_SIZE = 10;

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
  const [promo, material, coverage, invites, entries, withdrawals] = await Promise.all([
    load('UserPromotion.GetUserPromotion', {}, empty),
    load('Config.UserPromotionMaterial', {}, { list: [] }),
    loadCoverage(),
    tab === 'invite'
      ? load('UserPromotion.GetInvitationDetails', { page, pageSize: PAGE_SIZE }, { total: 0, list: [] })
      : null,
    tab === 'commission'
      ? load('UserPromotion.GetCommissionDetails', { page, pageSize: PAGE_SIZE }, { total: 0, list: [] })
      : null,
    tab === 'withdraw' ? load('UserPromotion.GetWithdrawals', {}, { list: [] }) : null,
  ]);
  const s = promo.summary;
  const figures = coverageFigures(coverage.totals);
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
                  if (m.kind === 'image') {
                    // A poster: shown as the picture it is, with the way to save it (never its path as text).
                    return (
                      <li
                        key={m.id}
                        className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3"
                        data-testid="material-poster"
                      >
                        <p className="text-sm font-medium text-ink">{m.title}</p>
                        <img
                          src={m.content}
                          alt={m.title}
                          loading="lazy"
                          className="max-h-48 w-full flex-1 rounded-md bg-slate-50 object-contain"
                        />
                        <div className="flex flex-wrap items-center gap-2">
                          <a href={m.content} download className="btn-outline px-3 py-1.5 text-xs">
                            下载海报
                          </a>
                          <CopyButton text={promo.link ?? ''} label="复制链接" />
                          <span className="text-xs text-slate-500">分享海报时附上您的推广链接</span>
                        </div>
                      </li>
                    );
                  }
                  const text = fillMaterialText(m.content, promo.link ?? '', figures);
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
      <PromotionLedger
        tab={tab}
        page={page}
        pageSize={PAGE_SIZE}
        invites={invites}
        entries={entries}
        withdrawals={withdrawals}
      />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
