// /personalCenter/balance: the customer's 账户余额 (docs/decisions/224) — the balance, a top-up (preset or own amount,
// paid at the cashier like any order), and the ledger: each entry's income or expense and the balance after it, paged,
// with a CSV download. Commission (佣金) is a different sum, on 推广返利.
import { Cell, DataBody, DataHead, DataRow, DataTable, Th } from '../../../components/data-table';
import { PageHead } from '../../../components/page-head';
import { Pager } from '../../../components/pager';
import { signedFen, TOP_UP_MAX_FEN, TOP_UP_MIN_FEN, TOP_UP_PRESETS_FEN } from '../../../lib/balance';
import { formatDateTime, formatFen } from '../../../lib/format';
import { load } from '../../../server/page-data';
import { LedgerDownload, TopUpForm } from './_components/balance-tools';

const PAGE_SIZE = 10;

export default async function BalancePage({ query }: { query: string }) {
  const page = Math.max(1, Math.min(10_000, Number(new URLSearchParams(query).get('page')) || 1));
  const data = await load(
    'Balance.Get',
    { page, pageSize: PAGE_SIZE },
    {
      balanceFen: 0,
      total: 0,
      page,
      pageSize: PAGE_SIZE,
      list: [],
      topUp: { minFen: TOP_UP_MIN_FEN, maxFen: TOP_UP_MAX_FEN, presetsFen: [...TOP_UP_PRESETS_FEN] },
    },
  );
  return (
    <div className="space-y-5" data-testid="balance-page">
      <PageHead trail={[{ label: '财务' }, { label: '账户余额' }]} title="账户余额" />
      <section className="card grid gap-6 p-6 md:grid-cols-[240px_1fr]">
        <div>
          <p className="text-sm text-slate-500">可用余额</p>
          <p className="mt-1 text-3xl font-bold text-ink" data-testid="balance-amount">
            {formatFen(data.balanceFen)}
          </p>
          <p className="mt-3 text-xs leading-5 text-slate-500">
            余额可直接支付任意订单（收银台选择「余额支付」），也可为套餐开启到期自动续费。余额不可提现；推广佣金请在
            <a className="text-brand-600 hover:underline" href="/personalCenter/promotionRebate">
              推广返利
            </a>
            中查看。
          </p>
        </div>
        <TopUpForm minFen={data.topUp.minFen} maxFen={data.topUp.maxFen} presetsFen={data.topUp.presetsFen} />
      </section>
      <section className="card p-6">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-base font-semibold text-ink">余额明细</h2>
          <LedgerDownload />
        </div>
        {data.list.length === 0 ? (
          <p className="py-10 text-center text-sm text-slate-500" data-testid="ledger-empty">
            暂无余额变动
          </p>
        ) : (
          <div className="overflow-x-auto">
            <DataTable className="md:min-w-[640px] md:[&_td]:pr-4 md:[&_th]:pr-4" data-testid="ledger">
              <DataHead className="text-xs text-slate-500">
                <tr>
                  <Th className="py-2">时间</Th>
                  <Th>类型</Th>
                  <Th className="text-right">收入/支出</Th>
                  <Th className="text-right">余额</Th>
                  <Th>订单号/说明</Th>
                </tr>
              </DataHead>
              <DataBody className="divide-y divide-slate-100">
                {data.list.map((e) => (
                  <DataRow key={e.id} data-testid="ledger-row">
                    <Cell kind="title" className="py-2 max-md:font-medium max-md:text-ink">
                      {formatDateTime(e.createdAt)}
                    </Cell>
                    <Cell label="类型">{e.kindText}</Cell>
                    <Cell
                      label="收入/支出"
                      className={`text-right font-medium ${e.amountFen > 0 ? 'text-emerald-700' : 'text-rose-600'}`}
                    >
                      {signedFen(e.amountFen)}
                    </Cell>
                    <Cell label="余额" className="text-right">
                      {formatFen(e.balanceAfterFen)}
                    </Cell>
                    <Cell label="订单号/说明" className="text-xs text-slate-500 [overflow-wrap:anywhere]">
                      {e.orderNo ? (
                        <a className="font-mono text-brand-600 hover:underline" href={`/payPage?orderNo=${e.orderNo}`}>
                          {e.orderNo}
                        </a>
                      ) : null}
                      {e.note ? <span className="block">{e.note}</span> : null}
                    </Cell>
                  </DataRow>
                ))}
              </DataBody>
            </DataTable>
          </div>
        )}
        <Pager
          page={data.page}
          pageSize={data.pageSize}
          total={data.total}
          href={(p) => `/personalCenter/balance?page=${p}`}
        />
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
