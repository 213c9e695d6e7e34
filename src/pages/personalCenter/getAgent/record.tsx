// /personalCenter/getAgent/record: extraction calls over time (chart), the call log and the IPs handed out.

import { Cell, DataBody, DataHead, DataRow, DataTable, Th } from '../../../components/data-table';
import { BarChart } from '../../../components/delivery/bar-chart';
import { HistoryDownload } from '../../../components/delivery/history-download';
import { ExpiryCell, IpPortCell } from '../../../components/delivery/ip-cells';
import { EmptyRow, LinkTabs, pageOf, queryOf } from '../../../components/list-page';
import { PageHead } from '../../../components/page-head';
import { Pager } from '../../../components/pager';
import type { ActionOutput } from '../../../lib/api-core';
import { formatTraffic } from '../../../lib/extract-link';
import { EXTRACT_RESULT_TEXT } from '../../../lib/extract-results';
import { formatDateTime } from '../../../lib/format';
import { load } from '../../../server/page-data';
import { DAY_MS, HOUR_MS } from '../../../lib/time';

const RANGES = [
  { key: '24h', label: '近24小时' },
  { key: '7d', label: '近7天' },
  { key: '30d', label: '近30天' },
] as const;

type Chart = ActionOutput<'ProxyRPC.GetCharts'>;

/** The chart's buckets, zero-filled so the time axis has no gaps. */
function fillBuckets(c: Chart, now: number) {
  const size = c.bucket === 'hour' ? HOUR_MS : DAY_MS;
  const byAt = new Map(c.points.map((p) => [p.at, p]));
  const out = [];
  for (let at = c.from; at <= now; at += size) {
    const p = byAt.get(at);
    const label = c.bucket === 'hour' ? `${formatDateTime(at).slice(11, 13)}时` : formatDateTime(at).slice(5, 10);
    out.push({ label, values: [p?.ips ?? 0, p?.calls ?? 0] });
  }
  return out;
}

export default async function RecordPage({ query }: { query?: string }) {
  const q = queryOf(query);
  const range = RANGES.find((r) => r.key === q.get('range'))?.key ?? '7d';
  const tab = q.get('tab') === 'ips' ? 'ips' : 'calls';
  const page = pageOf(q);
  const now = Date.now();
  const [chart, calls, ips] = await Promise.all([
    load('ProxyRPC.GetCharts', { range }, { bucket: 'day', from: now, points: [] }),
    tab === 'calls' ? load('ProxyRPC.GetList', { page, pageSize: 15 }, { total: 0, list: [] }) : null,
    tab === 'ips' ? load('ProxyLog.GetList', { page, pageSize: 15 }, { total: 0, totalCapped: false, list: [] }) : null,
  ]);
  const totals = chart.points.reduce((s, p) => ({ calls: s.calls + p.calls, ips: s.ips + p.ips }), {
    calls: 0,
    ips: 0,
  });
  const href = (o: Record<string, string | number>) => {
    const next = new URLSearchParams({
      range,
      tab,
      ...Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)])),
    });
    return `/personalCenter/getAgent/record?${next}`;
  };
  return (
    <div className="space-y-5" data-testid="record-page">
      <PageHead trail={['获取代理', '提取记录']} title="提取记录" />
      <section className="card p-5">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <div className="flex gap-6 text-sm">
            <div>
              <div className="text-slate-500">提取次数</div>
              <div className="text-2xl font-semibold text-ink" data-testid="record-calls">
                {totals.calls}
              </div>
            </div>
            <div>
              <div className="text-slate-500">提取IP数</div>
              <div className="text-2xl font-semibold text-brand-700" data-testid="record-ips">
                {totals.ips}
              </div>
            </div>
          </div>
          <div className="flex gap-1 rounded-lg bg-slate-100 p-1 text-sm">
            {RANGES.map((r) => (
              <a
                key={r.key}
                href={href({ range: r.key, page: 1 })}
                className={`rounded-md px-3 py-1 ${r.key === range ? 'bg-white font-medium text-brand-700 shadow-sm' : 'text-slate-600'}`}
              >
                {r.label}
              </a>
            ))}
          </div>
        </div>
        <BarChart
          points={fillBuckets(chart, now)}
          series={[
            { name: '提取IP数', color: '#1d54f5' },
            { name: '提取次数', color: '#8ebdff' },
          ]}
        />
      </section>
      <section className="card overflow-hidden">
        <LinkTabs
          current={tab}
          tabs={[
            { key: 'calls', label: '调用记录', href: href({ tab: 'calls', page: 1 }) },
            { key: 'ips', label: 'IP明细', href: href({ tab: 'ips', page: 1 }) },
          ]}
        />
        <div className="overflow-x-auto p-4">
          {calls && (
            <DataTable className="md:min-w-[640px]">
              <DataHead className="text-xs text-slate-500">
                <tr className="border-b border-slate-100">
                  <Th className="py-2 font-normal">时间</Th>
                  <Th className="font-normal">调用IP</Th>
                  <Th className="font-normal">类型</Th>
                  <Th className="font-normal">请求/返回</Th>
                  <Th className="font-normal">结果</Th>
                  <Th className="font-normal">参数</Th>
                </tr>
              </DataHead>
              <DataBody>
                {calls.list.length === 0 && <EmptyRow cols={6} text="暂无提取记录" />}
                {calls.list.map((r) => (
                  <DataRow key={r.id} className="border-b border-slate-50">
                    <Cell kind="title" className="py-2 whitespace-nowrap max-md:font-medium max-md:text-ink">
                      {formatDateTime(r.createdAt)}
                    </Cell>
                    <Cell label="调用IP" className="font-mono text-xs">
                      {r.clientIp}
                    </Cell>
                    <Cell label="类型">{r.productType === 40 ? '长效' : '短效'}</Cell>
                    <Cell label="请求/返回">
                      {r.requested} / {r.returned}
                    </Cell>
                    <Cell label="结果" className={r.code === 0 ? 'text-emerald-600' : 'text-rose-600'}>
                      {EXTRACT_RESULT_TEXT[r.code] ?? r.code}
                    </Cell>
                    <Cell
                      label="参数"
                      className="font-mono text-xs text-slate-400 md:max-w-[220px] md:truncate max-md:break-all"
                      title={r.query}
                    >
                      {r.query}
                    </Cell>
                  </DataRow>
                ))}
              </DataBody>
            </DataTable>
          )}
          {ips && (
            <DataTable className="md:min-w-[640px]">
              <DataHead className="text-xs text-slate-500">
                <tr className="border-b border-slate-100">
                  <Th className="py-2 font-normal">IP:端口</Th>
                  <Th className="font-normal">协议</Th>
                  <Th className="font-normal">地区</Th>
                  <Th className="font-normal">运营商</Th>
                  <Th className="font-normal">提取时间</Th>
                  <Th className="font-normal">到期时间</Th>
                  <Th className="font-normal">流量 / 连接</Th>
                </tr>
              </DataHead>
              <DataBody>
                {ips.list.length === 0 && <EmptyRow cols={7} text="暂无提取的IP" />}
                {ips.list.map((r) => (
                  <DataRow key={r.id} className="border-b border-slate-50">
                    <IpPortCell ip={r.ip} port={r.port} />
                    <Cell label="协议">{r.protocol}</Cell>
                    <Cell label="地区">{r.region}</Cell>
                    <Cell label="运营商">{r.carrier}</Cell>
                    <Cell label="提取时间" className="whitespace-nowrap">
                      {formatDateTime(r.assignedAt)}
                    </Cell>
                    <ExpiryCell expiresAt={r.expiresAt} />
                    <Cell label="流量 / 连接" className="whitespace-nowrap">
                      {formatTraffic(r.bytes)} / {r.connections}
                    </Cell>
                  </DataRow>
                ))}
              </DataBody>
            </DataTable>
          )}
          <Pager
            page={page}
            pageSize={15}
            total={(calls ?? ips)?.total ?? 0}
            capped={ips?.totalCapped ?? false}
            href={(p) => href({ page: p })}
          />
        </div>
      </section>
      <section className="card p-5">
        <h2 className="mb-3 text-sm font-semibold text-ink">下载记录</h2>
        <HistoryDownload today={now} />
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
