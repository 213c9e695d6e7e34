// /admin/nodes: proxy nodes (ops): status, protocol version, last heartbeat, exits healthy / leased; create (the secret
// is shown once), disable / enable, rotate the secret; exits and health per node, province, carrier and pool.
import type { ActionOutput } from '../../../../lib/api-core';
import { formatDateTime } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { type Column, ListTable } from '../../_components/console-list';
import { CreateNodeForm, NodeRowActions } from './_components/node-tools';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { MINUTE_MS } from '../../../../lib/time';

type NodeList = ActionOutput<'Admin.NodeList'>;
type AdminNodeRow = NodeList['nodes'][number];
type ExitHealthRow = NodeList['exits'][number];

const POOLS: [number, string][] = [
  [10, '动态'],
  [40, '静态'],
  [30, '独享'],
];
/** A v2 node heartbeats every minute: no heartbeat for 3 minutes reads as offline. */
const OFFLINE_AFTER_MS = 3 * MINUTE_MS;

interface RegionHealth {
  key: string;
  label: string;
  /** healthy / total per pool (10 dynamic, 40 static, 30 dedicated). */
  pools: Record<number, [number, number]>;
  checkedAt: number;
}

/** Exit health rows summed per province (or per province and carrier), pools side by side. */
function byRegion(rows: ExitHealthRow[], withCarrier = false): RegionHealth[] {
  const map = new Map<string, RegionHealth>();
  for (const e of rows) {
    const key = withCarrier ? `${e.province}|${e.carrier}` : e.province;
    const r = map.get(key) ?? {
      key,
      label: withCarrier ? `${e.province} · ${e.carrier}` : e.province,
      pools: {},
      checkedAt: 0,
    };
    const [h, t] = r.pools[e.pool] ?? [0, 0];
    r.pools[e.pool] = [h + e.healthy, t + e.total];
    r.checkedAt = Math.max(r.checkedAt, e.checkedAt);
    map.set(key, r);
  }
  return [...map.values()];
}

function Health({ v }: { v: [number, number] | undefined }) {
  if (!v) return <span className="text-slate-300">—</span>;
  const [h, t] = v;
  return (
    <span className={h === t ? 'text-emerald-600' : h === 0 ? 'text-rose-600' : 'text-amber-600'}>{`${h}/${t}`}</span>
  );
}

/** The region health columns: the region (with carrier), healthy / total per pool and the last check; on a phone one
 * two-line row per region (the dynamic pool at the end of the first line, the other pools and the check below). */
const regionColumns = (first: string): Column<RegionHealth>[] => [
  { head: first, dense: 'title', cell: (r) => r.label },
  ...POOLS.map(
    ([p, label], i): Column<RegionHealth> => ({
      head: `${label}（健康/总数）`,
      ...(i === 0 ? { dense: 'end' as const } : {}),
      cell: (r) => <Health v={r.pools[p]} />,
    }),
  ),
  {
    head: '其他池',
    phoneOnly: true,
    dense: 'sub',
    className: 'text-xs text-slate-500',
    cell: (r) =>
      POOLS.slice(1).map(([p, label]) => (
        <span key={p} className="mr-2">
          {label} <Health v={r.pools[p]} />
        </span>
      )),
  },
  {
    head: '最近检查',
    dense: 'subEnd',
    className: 'max-md:text-xs max-md:text-slate-400',
    cell: (r) => (r.checkedAt ? formatDateTime(r.checkedAt) : '—'),
  },
];

function RegionTable({ rows, first }: { rows: RegionHealth[]; first: string }) {
  return (
    <ListTable
      data-testid="exit-table"
      dense
      chevron={false}
      rows={rows}
      rowKey={(r) => r.key}
      empty="节点尚未上报出口"
      pad="px-3"
      columns={regionColumns(first)}
    />
  );
}

/** The node list's columns; the state reads online / offline from the last heartbeat at `now`. */
function nodeColumns(now: number): Column<AdminNodeRow>[] {
  const statusText = (n: AdminNodeRow): [string, string] => {
    if (n.status !== 1) return ['已停用', 'text-slate-500'];
    if (n.lastSeenAt === 0) return ['未上线', 'text-slate-500'];
    return now - n.lastSeenAt < OFFLINE_AFTER_MS ? ['在线', 'text-emerald-600'] : ['离线', 'text-rose-600'];
  };
  return [
    {
      head: '节点',
      kind: 'title',
      className: 'font-medium',
      cell: (n) => (
        <>
          {n.name}{' '}
          <span className="text-xs font-normal text-slate-400">
            #{n.id} · v{n.apiVersion}
          </span>
        </>
      ),
    },
    {
      head: '状态',
      cell: (n) => {
        const [text, tone] = statusText(n);
        return (
          <>
            <span className={tone}>{text}</span>
            {n.previousSecretUntil > 0 && (
              <span className="block text-xs text-amber-700" data-testid="node-old-secret">
                旧密钥有效至 {formatDateTime(n.previousSecretUntil)}
              </span>
            )}
          </>
        );
      },
    },
    { head: '最近心跳', cell: (n) => (n.lastSeenAt ? formatDateTime(n.lastSeenAt) : '从未') },
    { head: '出口（健康/总数）', cell: (n) => `${n.healthy}/${n.exits}` },
    { head: '在租', cell: (n) => n.leased },
    {
      head: '操作',
      kind: 'actions',
      cell: (n) => <NodeRowActions id={n.id} name={n.name} status={n.status} />,
    },
  ];
}

export default async function AdminNodesPage() {
  const res = await load('Admin.NodeList', {}, false);
  if (!res) return <NoAccess />;
  const names = new Map(res.nodes.map((n) => [n.id, n.name]));
  return (
    <div className="space-y-4">
      <PageTitle title="节点" />
      <Section title="新建节点">
        <CreateNodeForm />
        <p className="mt-2 text-xs text-slate-500">
          节点用编号和密钥签名每次调用（docs/node-api.md）；密钥只在新建和轮换时显示一次。
        </p>
      </Section>

      <Section title="节点列表">
        <ListTable
          data-testid="node-table"
          rows={res.nodes}
          rowKey={(n) => n.id}
          empty="还没有节点"
          pad="px-3"
          columns={nodeColumns(Date.now())}
        />
      </Section>

      <Section title="出口健康（按地区，全部节点）">
        <RegionTable rows={byRegion(res.exits)} first="地区" />
      </Section>

      <Section title="出口健康（按节点、地区与运营商）">
        {res.nodes.filter((n) => n.exits > 0).length === 0 && (
          <p className="text-sm text-slate-400">节点尚未上报出口</p>
        )}
        <div className="space-y-2">
          {res.nodes
            .filter((n) => n.exits > 0)
            .map((n) => (
              <details key={n.id} className="rounded-lg border border-slate-100" data-testid={`node-exits-${n.id}`}>
                <summary className="cursor-pointer px-3 py-2 text-sm">
                  <span className="font-medium text-slate-900">{names.get(n.id)}</span>{' '}
                  <span className="text-xs text-slate-500">
                    健康 {n.healthy}/{n.exits}
                  </span>
                </summary>
                <div className="px-1 pb-2">
                  <RegionTable
                    rows={byRegion(
                      res.exits.filter((e) => e.nodeId === n.id),
                      true,
                    )}
                    first="地区 · 运营商"
                  />
                </div>
              </details>
            ))}
        </div>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
