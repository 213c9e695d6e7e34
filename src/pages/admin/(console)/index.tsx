// /admin: the dashboard — money and activity today, 7 and 30 days; customers, packages, pool and nodes; the to-do list;
// the last retention run.
import { PRODUCT_LABEL } from '../../../lib/commerce';
import { formatDateTime, formatFen } from '../../../lib/format';
import { load } from '../../../server/page-data';
import { MiniBars, NoAccess, PageTitle, Section, Stat } from '../_components/parts';

const POOL_LABEL: Record<number, string> = { 10: '短效动态池', 30: '固定IP池', 40: '长效静态池' };

export default async function AdminDashboardPage() {
  const d = await load('Admin.Dashboard', {}, false);
  if (!d) return <NoAccess />;
  const windows = [
    ['今日', d.today],
    ['近7天', d.week],
    ['近30天', d.month],
  ] as const;
  const realNameRate = d.customers ? Math.round((d.verifiedCustomers / d.customers) * 1000) / 10 : 0;
  const todo = [
    ['待审核企业认证', d.todo.companyReviews, '/admin/reviews'],
    ['待处理提现', d.todo.withdrawals, '/admin/withdrawals'],
    ['需退款的支付', d.todo.refundNeeded, '/admin/orders?flag=refund_needed'],
    ['退款待核对（异常、超时或被关闭）', d.todo.refundIssues, '/admin/orders?flag=refund_issue'],
    // Unpaid orders with a live attempt at WeChat Pay or Alipay (a transfer is finance's to confirm, not a provider's).
    ['等待支付渠道结果的订单', d.todo.pendingAtProvider, '/admin/orders?state=1'],
    // Paid, but the region bought has no free dedicated IP: restock that region's pool (nodes) to allocate them.
    ['等待分配IP的固定/优质IP套餐', d.todo.awaitingIps, '/admin/nodes'],
  ] as const;
  return (
    <div className="space-y-5">
      <PageTitle title="概览" />
      <div className="grid gap-4 lg:grid-cols-3">
        {windows.map(([label, w]) => (
          <div key={label} className="card p-4" data-testid={`dash-window-${label}`}>
            <p className="text-sm font-semibold text-slate-700">{label}</p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1.5 text-sm">
              <dt className="text-slate-500">收入</dt>
              <dd className="text-right font-semibold text-slate-900">{formatFen(w.revenueFen)}</dd>
              <dt className="text-slate-500">退款</dt>
              <dd className="text-right">{formatFen(w.refundedFen)}</dd>
              <dt className="text-slate-500">支付订单</dt>
              <dd className="text-right">{w.paidOrders}</dd>
              <dt className="text-slate-500">新注册</dt>
              <dd className="text-right">{w.registrations}</dd>
              <dt className="text-slate-500">提取次数 / IP数</dt>
              <dd className="text-right">
                {w.extractions} / {w.ipsHandedOut}
              </dd>
            </dl>
          </div>
        ))}
      </div>
      <div className="card grid gap-5 p-4 md:grid-cols-3" data-testid="dash-daily">
        <MiniBars
          title="近14天收入"
          points={d.days.map((x) => ({ label: x.day, value: x.revenueFen }))}
          format={formatFen}
        />
        <MiniBars title="近14天支付订单" points={d.days.map((x) => ({ label: x.day, value: x.paidOrders }))} />
        <MiniBars title="近14天成功提取" points={d.days.map((x) => ({ label: x.day, value: x.extractions }))} />
      </div>
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Stat label="客户总数" value={d.customers} />
        <Stat label="实名率" value={`${realNameRate}%`} hint={`${d.verifiedCustomers} 人已实名`} />
        {d.livePackages.map((p) => (
          <Stat key={p.productType} label={`在用套餐 · ${PRODUCT_LABEL[p.productType] ?? p.productType}`} value={p.n} />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="待办事项">
          <ul className="divide-y divide-slate-100 text-sm" data-testid="dash-todo">
            {todo.map(([label, n, href]) => (
              <li key={label} className="flex items-center justify-between py-2">
                <a href={href} className="text-slate-700 hover:text-brand-700">
                  {label}
                </a>
                <span className={n > 0 ? 'rounded-full bg-rose-50 px-2 font-semibold text-rose-600' : 'text-slate-400'}>
                  {n}
                </span>
              </li>
            ))}
          </ul>
        </Section>
        <Section title="IP池与节点">
          <ul className="space-y-1 text-sm">
            {d.pool.length === 0 && <li className="text-slate-400">IP池为空</li>}
            {d.pool.map((p) => (
              <li key={p.pool} className="flex justify-between">
                <span>{POOL_LABEL[p.pool] ?? p.pool}</span>
                <span>
                  可用 {p.healthy} / 共 {p.total}
                </span>
              </li>
            ))}
          </ul>
          {d.poolByRegion.length > 0 && (
            <details className="mt-3 border-t border-slate-100 pt-3 text-sm" data-testid="dash-pool-regions">
              <summary className="cursor-pointer text-slate-600">按地区与运营商（可用占比最低的在前）</summary>
              <ul className="mt-2 space-y-1">
                {d.poolByRegion.map((r) => (
                  <li key={`${r.pool}-${r.province}-${r.carrier}`} className="flex flex-wrap justify-between gap-x-3">
                    <span>
                      {POOL_LABEL[r.pool] ?? r.pool} · {r.province} · {r.carrier}
                    </span>
                    <span className={r.healthy < r.total / 2 ? 'font-semibold text-rose-600' : 'text-slate-500'}>
                      可用 {r.healthy} / 共 {r.total}
                    </span>
                  </li>
                ))}
              </ul>
            </details>
          )}
          <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-sm">
            {d.nodes.length === 0 && <li className="text-slate-400">尚无节点</li>}
            {d.nodes.map((n) => (
              <li key={n.id} className="flex flex-wrap justify-between gap-x-3">
                <span>
                  {n.name} {n.status === 1 ? '' : '（已停用）'}
                </span>
                <span className="text-slate-500">
                  {n.ips} 个出口 · {n.lastSeenAt ? `最近上报 ${formatDateTime(n.lastSeenAt)}` : '从未上报'}
                </span>
              </li>
            ))}
          </ul>
        </Section>
      </div>
      <Section title="数据清理">
        <p className="text-sm text-slate-600" data-testid="dash-retention">
          {d.lastRetention
            ? `最近一次：${formatDateTime(d.lastRetention.startedAt)}，保留 ${d.lastRetention.retentionDays} 天，删除 ${d.lastRetention.rowsRemoved} 行${d.lastRetention.finishedAt ? '' : '（进行中或未完成）'}`
            : '尚未运行'}
        </p>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
