// The customer's object forwards each kept call's leases to the objects of their exits' nodes (decision 243 item 2,
// decision 245): an outbox in the customer's object, filled in the same transaction that keeps the call, sent by its
// alarm in one call per node, deleted once the node's object has them (keeping is idempotent by lease id), retried
// after a failure. A lease reaches its node within the hand-over's batch delay plus one alarm.
import type { Receipt } from '../db/extract';
import { leasesByNode, type NodeLease, type NodeLeasesNamespace, nodeLeases } from './node-leases';

export const FORWARD_SCHEMA = `CREATE TABLE IF NOT EXISTS forwards (
  id TEXT PRIMARY KEY, node_id INTEGER NOT NULL, lease TEXT NOT NULL);`;

/** After a failed send, the next try. */
export const FORWARD_RETRY_MS = 5_000;

/** Queue the leases of a freshly kept receipt (call inside the transaction that keeps it). */
export function queueForwards(sql: SqlStorage, r: Receipt): void {
  for (const [nodeId, leases] of leasesByNode(r)) {
    for (const lease of leases) {
      sql.exec(
        'INSERT INTO forwards (id, node_id, lease) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING',
        lease.id,
        nodeId,
        JSON.stringify(lease),
      );
    }
  }
}

/** Send the queued leases, one call per node; true when nothing is left queued. */
export async function sendForwards(sql: SqlStorage, ns: NodeLeasesNamespace): Promise<boolean> {
  const byNode = new Map<number, NodeLease[]>();
  for (const row of sql.exec('SELECT node_id, lease FROM forwards ORDER BY id').toArray()) {
    const node = Number(row.node_id);
    byNode.set(node, [...(byNode.get(node) ?? []), JSON.parse(String(row.lease)) as NodeLease]);
  }
  let left = false;
  for (const [node, leases] of byNode) {
    try {
      await nodeLeases(ns, node).keep(leases);
      sql.exec(
        'DELETE FROM forwards WHERE id IN (SELECT value FROM json_each(?))',
        JSON.stringify(leases.map((l) => l.id)),
      );
    } catch (err) {
      left = true;
      console.error(JSON.stringify({ level: 'error', where: 'lease-forward', node, error: String(err) }));
    }
  }
  return !left;
}
