// The customer's object forwards each kept call's leases to the objects of their exits' nodes (decision 243 item 2,
// decision 245): an outbox in the customer's object, filled in the same transaction that keeps the call, sent by its
// alarm in pages, one call per node and page, deleted once the node's object has them (keeping is idempotent by lease id), retried
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

/** Leases one call to a node's object carries at most (≈ 300 KB across the boundary). */
export const FORWARD_PAGE = 2_000;
/** Pages one alarm sends at most (a backlog after a node's outage leaves over a few alarms, FORWARD_RETRY_MS apart). */
const FORWARD_PAGES = 25;

/**
 * Send the queued leases, oldest first, in pages of FORWARD_PAGE, one call per node and page; a node whose object
 * fails is skipped for the rest of this send, so it holds back no other node's leases. True when nothing is left
 * queued.
 */
export async function sendForwards(sql: SqlStorage, ns: NodeLeasesNamespace): Promise<boolean> {
  const failed: number[] = [];
  for (let page = 0; page < FORWARD_PAGES; page++) {
    const rows = sql
      .exec(
        `SELECT node_id, lease FROM forwards WHERE node_id NOT IN (SELECT value FROM json_each(?1))
         ORDER BY id LIMIT ?2`,
        JSON.stringify(failed),
        FORWARD_PAGE,
      )
      .toArray();
    if (rows.length === 0) break;
    const byNode = new Map<number, NodeLease[]>();
    for (const row of rows) {
      const node = Number(row.node_id);
      const list = byNode.get(node) ?? [];
      if (list.length === 0) byNode.set(node, list);
      list.push(JSON.parse(String(row.lease)) as NodeLease);
    }
    for (const [node, leases] of byNode) {
      try {
        await nodeLeases(ns, node).keep(leases);
        sql.exec(
          'DELETE FROM forwards WHERE id IN (SELECT value FROM json_each(?))',
          JSON.stringify(leases.map((l) => l.id)),
        );
      } catch (err) {
        failed.push(node);
        console.error(JSON.stringify({ level: 'error', where: 'lease-forward', node, error: String(err) }));
      }
    }
  }
  return sql.exec('SELECT 1 FROM forwards LIMIT 1').toArray().length === 0;
}
