// /personalCenter/getAgent/bandwidth: traffic through the proxies as the nodes report it (rolled up every 5 min).
import { BarChart } from '../../../components/delivery/bar-chart';
import { queryOf } from '../../../components/list-page';
import { PageHead } from '../../../components/page-head';
import type { ActionOutput } from '../../../lib/api-core';
import { formatTraffic } from '../../../lib/extract-link';
import { formatDateTime } from '../../../lib/format';
import { load } from '../../../server/page-data';
import { DAY_MS, HOUR_MS } from '../../../lib/time';

const RANGES = [
  { key: '24h', label: '近24小时' },
  { key: '7d', label: '近7天' },
  { key: '30d', label: '近30天' },
] as const;

type Bandwidth = ActionOutput<'Statistics.Bandwidth'>;

function buckets(b: Bandwidth, range: string, now: number) {
  const map = new Map(b.points.map((p) => [String(p.at), p]));
  const out = [];
  if (b.bucket === 'hour') {
    for (let at = b.from; at <= now; at += HOUR_MS) {
      const p = map.get(String(at));
      out.push({ label: `${formatDateTime(at).slice(11, 13)}时`, values: [p?.bytesOut ?? 0, p?.bytesIn ?? 0] });
    }
    return out;
  }
  const days = range === '30d' ? 30 : 7;
  for (let i = days - 1; i >= 0; i--) {
    const day = formatDateTime(now - i * DAY_MS).slice(0, 10);
    const p = map.get(day);
    out.push({ label: day.slice(5), values: [p?.bytesOut ?? 0, p?.bytesIn ?? 0] });
  }
  return out;
}

export default async function BandwidthPage({ query }: { query?: string }) {
  const q = queryOf(query);
  const range = RANGES.find((r) => r.key === q.get('range'))?.key ?? '24h';
  const now = Date.now();
  const data = await load(
    'Statistics.Bandwidth',
    { range },
    {
      bucket: 'hour',
      from: now,
      points: [],
      total: { bytesIn: 0, bytesOut: 0 },
    },
  );
  const cards = [
    { label: '下行流量（代理→客户端）', value: formatTraffic(data.total.bytesOut) },
    { label: '上行流量（客户端→代理）', value: formatTraffic(data.total.bytesIn) },
    { label: '合计', value: formatTraffic(data.total.bytesIn + data.total.bytesOut) },
  ];
  return (
    <div className="space-y-5" data-testid="bandwidth-page">
      <PageHead
        trail={['获取代理', '带宽统计']}
        title="带宽统计"
        actions={
          <div className="flex gap-1 rounded-lg bg-slate-100 p-1 text-sm">
            {RANGES.map((r) => (
              <a
                key={r.key}
                href={`/personalCenter/getAgent/bandwidth?range=${r.key}`}
                className={`rounded-md px-3 py-1 ${r.key === range ? 'bg-white font-medium text-brand-700 shadow-sm' : 'text-slate-600'}`}
              >
                {r.label}
              </a>
            ))}
          </div>
        }
      />
      <div className="grid gap-4 md:grid-cols-3">
        {cards.map((c) => (
          <div key={c.label} className="card p-5">
            <div className="text-sm text-slate-500">{c.label}</div>
            <div className="mt-1 text-2xl font-semibold text-ink">{c.value}</div>
          </div>
        ))}
      </div>
      <section className="card p-5">
        <BarChart
          points={buckets(data, range, now)}
          series={[
            { name: '下行', color: '#1d54f5' },
            { name: '上行', color: '#5eead4' },
          ]}
          formatValue={formatTraffic}
          emptyText="暂无流量数据（节点每5分钟上报）"
        />
        <p className="mt-3 text-xs text-slate-400">数据来自代理节点上报，每5分钟汇总一次；按北京时间统计。</p>
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
