// /personalCenter/ipManager/{type}: long-lived IPs. 30 (and 50): dedicated fixed IPs with area distribution and
// allocation records; 40: long-lived static IPs extracted and still valid.
import { Cell, DataBody, DataHead, DataRow, DataTable, Th } from '../../../components/data-table';
import { ExpiryCell, IpPortCell } from '../../../components/delivery/ip-cells';
import { EmptyRow, LinkTabs, pageOf, queryOf } from '../../../components/list-page';
import { PageHead } from '../../../components/page-head';
import { Pager } from '../../../components/pager';
import { formatDateTime } from '../../../lib/format';
import { load } from '../../../server/page-data';
import { IpRemark } from './_components/ip-remark';

export default async function IpManagerPage({ type, query }: { type: string; query?: string }) {
  const q = queryOf(query);
  const current = type === '40' ? 40 : 30;
  const page = pageOf(q);
  const [ips, dist, records] = await Promise.all([
    load(
      'ProxyIp.GetLongStaticIpList',
      { type: current, page, pageSize: 15 },
      { total: 0, totalCapped: false, list: [] },
    ),
    current === 30 ? load('FixedAllocation.fixedIpAreaDistribution', {}, { list: [] }) : null,
    current === 30
      ? load('FixedAllocation.FixedIpConsumerRecord', { page: 1, pageSize: 10 }, { total: 0, list: [] })
      : null,
  ]);
  const max = Math.max(1, ...(dist?.list ?? []).map((d) => d.count));
  return (
    <div className="space-y-5" data-testid="ip-manager-page">
      <PageHead trail={['产品管理', '长效IP管理']} title="长效IP管理" />
      <section className="card overflow-hidden">
        <LinkTabs
          current={String(current)}
          tabs={[
            { key: '30', label: '固定IP', href: '/personalCenter/ipManager/30' },
            { key: '40', label: '长效静态IP', href: '/personalCenter/ipManager/40' },
          ]}
        />
        <div className="overflow-x-auto p-4">
          <DataTable className="md:min-w-[680px]" data-testid="ip-table">
            <DataHead className="text-xs text-slate-500">
              <tr className="border-b border-slate-100">
                <Th className="py-2 font-normal">IP:端口</Th>
                <Th className="font-normal">地区</Th>
                <Th className="font-normal">运营商</Th>
                <Th className="font-normal">开始时间</Th>
                <Th className="font-normal">到期时间</Th>
                <Th className="font-normal">备注</Th>
              </tr>
            </DataHead>
            <DataBody>
              {ips.list.length === 0 && (
                <EmptyRow cols={6} text={current === 30 ? '暂无固定IP' : '暂无有效的长效静态IP'} />
              )}
              {ips.list.map((r) => (
                <DataRow key={r.id} className="border-b border-slate-50">
                  <IpPortCell ip={r.ip} port={r.port} />
                  <Cell label="地区">{r.region}</Cell>
                  <Cell label="运营商">{r.carrier}</Cell>
                  <Cell label="开始时间" className="whitespace-nowrap">
                    {formatDateTime(r.startsAt)}
                  </Cell>
                  <ExpiryCell expiresAt={r.expiresAt} />
                  <Cell label="备注">
                    {current === 30 ? <IpRemark id={r.id} initial={r.remark} /> : r.remark || '—'}
                  </Cell>
                </DataRow>
              ))}
            </DataBody>
          </DataTable>
          <Pager
            page={page}
            pageSize={15}
            total={ips.total}
            capped={ips.totalCapped}
            href={(p) => `/personalCenter/ipManager/${current}?page=${p}`}
          />
        </div>
      </section>
      {dist && records && (
        <div className="grid gap-5 md:grid-cols-2">
          <section className="card p-5">
            <h2 className="mb-3 font-semibold text-ink">地区分布</h2>
            {dist.list.length === 0 && <p className="text-sm text-slate-400">暂无数据</p>}
            <ul className="space-y-2">
              {dist.list.map((d) => (
                <li key={d.province} className="flex items-center gap-3 text-sm">
                  <span className="w-20 shrink-0 text-slate-600">{d.province}</span>
                  <span className="h-2 flex-1 rounded-full bg-slate-100">
                    <span
                      className="block h-2 rounded-full bg-brand-500"
                      style={{ width: `${(d.count / max) * 100}%` }}
                    />
                  </span>
                  <span className="w-8 text-right text-slate-500">{d.count}</span>
                </li>
              ))}
            </ul>
          </section>
          <section className="card p-5">
            <h2 className="mb-3 font-semibold text-ink">分配记录</h2>
            <ul className="divide-y divide-slate-50 text-sm">
              {records.list.length === 0 && <li className="py-2 text-slate-400">暂无记录</li>}
              {records.list.map((r) => (
                <li key={r.id} className="flex justify-between py-2">
                  <span className="font-mono text-xs">
                    {r.ip}:{r.port}
                  </span>
                  <span className="text-slate-500">{formatDateTime(r.allocatedAt)}</span>
                  <span className={r.live ? 'text-emerald-600' : 'text-slate-400'}>{r.live ? '使用中' : '已释放'}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
