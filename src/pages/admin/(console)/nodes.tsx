// /admin/nodes: proxy nodes (ops): status, protocol version, last heartbeat, exits healthy / leased; create (the secret
// is shown once), disable / enable, rotate the secret; exits and health per node, province, carrier and pool.
import { Cell, DataBody, DataHead, DataRow, DataTable, EmptyRow, Th } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { serverApi } from '../../../server/api-server';
import type { AdminNodeRow, ExitHealthRow } from '../../../server/db/operators-nodes';
import { CreateNodeForm, NodeRowActions } from '../_components/node-tools';
import { NoAccess, PageTitle, Section } from '../_components/parts';

const POOL: Record<number, string> = { 10: '动态', 40: '静态', 30: '独享' };
/** A v2 node heartbeats every minute: no heartbeat for 3 minutes reads as offline. */
const OFFLINE_AFTER_MS = 3 * 60_000;

export default async function AdminNodesPage() {
  const res = await (await serverApi()).call<{ nodes: AdminNodeRow[]; exits: ExitHealthRow[] }>(
    'Admin.NodeList',
    {},
    { silent: true },
  );
  if (!res || !('nodes' in res)) return <NoAccess />;
  const now = Date.now();
  const names = new Map(res.nodes.map((n) => [n.id, n.name]));
  const statusText = (n: AdminNodeRow) =>
    n.status !== 1
      ? ['已停用', 'text-slate-500']
      : now - n.lastSeenAt < OFFLINE_AFTER_MS
        ? ['在线', 'text-emerald-600']
        : ['离线', 'text-rose-600'];
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
        <DataTable data-testid="node-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-3 py-2">节点</Th>
              <Th className="px-3 py-2">状态</Th>
              <Th className="px-3 py-2">最近心跳</Th>
              <Th className="px-3 py-2">出口（健康/总数）</Th>
              <Th className="px-3 py-2">在租</Th>
              <Th className="px-3 py-2">操作</Th>
            </tr>
          </DataHead>
          <DataBody>
            {res.nodes.length === 0 && (
              <EmptyRow cols={6} className="py-8 text-slate-400">
                还没有节点
              </EmptyRow>
            )}
            {res.nodes.map((n) => {
              const [text, tone] = statusText(n);
              return (
                <DataRow key={n.id} className="border-t border-slate-100">
                  <Cell kind="title" className="px-3 py-2 font-medium">
                    {n.name}{' '}
                    <span className="text-xs font-normal text-slate-400">
                      #{n.id} · v{n.apiVersion}
                    </span>
                  </Cell>
                  <Cell label="状态" className="px-3 py-2">
                    <span className={tone}>{text}</span>
                  </Cell>
                  <Cell label="最近心跳" className="px-3 py-2">
                    {n.lastSeenAt ? formatDateTime(n.lastSeenAt) : '从未'}
                  </Cell>
                  <Cell label="出口" className="px-3 py-2">
                    {n.healthy}/{n.exits}
                  </Cell>
                  <Cell label="在租" className="px-3 py-2">
                    {n.leased}
                  </Cell>
                  <Cell kind="actions" className="px-3 py-2">
                    <NodeRowActions id={n.id} name={n.name} status={n.status} />
                  </Cell>
                </DataRow>
              );
            })}
          </DataBody>
        </DataTable>
      </Section>

      <Section title="出口健康（按节点、地区、运营商）">
        <DataTable data-testid="exit-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-3 py-2">节点</Th>
              <Th className="px-3 py-2">地区</Th>
              <Th className="px-3 py-2">运营商</Th>
              <Th className="px-3 py-2">IP池</Th>
              <Th className="px-3 py-2">健康/总数</Th>
              <Th className="px-3 py-2">最近检查</Th>
            </tr>
          </DataHead>
          <DataBody>
            {res.exits.length === 0 && (
              <EmptyRow cols={6} className="py-8 text-slate-400">
                节点尚未上报出口
              </EmptyRow>
            )}
            {res.exits.map((e) => (
              <DataRow key={`${e.nodeId}-${e.province}-${e.carrier}-${e.pool}`} className="border-t border-slate-100">
                <Cell kind="title" className="px-3 py-2">
                  {names.get(e.nodeId) ?? `#${e.nodeId}`}
                </Cell>
                <Cell label="地区" className="px-3 py-2">
                  {e.province}
                </Cell>
                <Cell label="运营商" className="px-3 py-2">
                  {e.carrier}
                </Cell>
                <Cell label="IP池" className="px-3 py-2">
                  {POOL[e.pool] ?? e.pool}
                </Cell>
                <Cell label="健康" className="px-3 py-2">
                  <span
                    className={
                      e.healthy === e.total ? 'text-emerald-600' : e.healthy === 0 ? 'text-rose-600' : 'text-amber-600'
                    }
                  >
                    {e.healthy}/{e.total}
                  </span>
                </Cell>
                <Cell label="最近检查" className="px-3 py-2">
                  {e.checkedAt ? formatDateTime(e.checkedAt) : '—'}
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
