// The promotion page's ledger: invitees, commission entries and withdrawals by tab (links), with the one pager.
import { Cell, DataBody, DataHead, DataRow, DataTable, Th } from '../../../../components/data-table';
import { Pager } from '../../../../components/pager';
import type { ActionOutput } from '../../../../lib/api-core';
import { COMMISSION_STATE_TEXT, bpPercent as pct, WITHDRAWAL_STATE_TEXT } from '../../../../lib/commission-rules';
import { formatDateTime, formatFen } from '../../../../lib/format';

export function PromotionLedger({
  tab,
  page,
  pageSize,
  invites,
  entries,
  withdrawals,
}: {
  tab: string;
  page: number;
  pageSize: number;
  invites: ActionOutput<'UserPromotion.GetInvitationDetails'> | null;
  entries: ActionOutput<'UserPromotion.GetCommissionDetails'> | null;
  withdrawals: ActionOutput<'UserPromotion.GetWithdrawals'> | null;
}) {
  const total = invites?.total ?? entries?.total ?? 0;
  const tabs = [
    { key: 'invite', label: '邀请明细' },
    { key: 'commission', label: '佣金明细' },
    { key: 'withdraw', label: '提现记录' },
  ];
  return (
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
          pageSize={pageSize}
          total={total}
          href={(p) => `/personalCenter/promotionRebate?tab=${tab}&page=${p}`}
        />
      )}
    </section>
  );
}
