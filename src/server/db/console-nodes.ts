// Queries behind the console's delivery screen (docs/decisions/126): proxy nodes with their exits and health, exits by
// region and carrier, and the node writes (create, enable/disable, rotate the signing secret), returned as statements
// for the caller's audited batch.

export interface AdminNodeRow {
  id: number;
  name: string;
  status: number;
  apiVersion: number;
  lastSeenAt: number;
  createdAt: number;
  exits: number;
  /** Exits healthy and unexpired now. */
  healthy: number;
  /** Exits leased to a customer now (extraction leases and fixed allocations). */
  leased: number;
  /** Until when the secret the last rotation replaced is still accepted (0: none; docs/decisions/162). */
  previousSecretUntil: number;
}

/** Every node with its exit counts, by id. */
export async function listNodesAdmin(db: D1Database, now: number): Promise<AdminNodeRow[]> {
  const { results } = await db
    .prepare(
      `SELECT n.id, n.name, n.status, n.api_version AS apiVersion, n.last_seen_at AS lastSeenAt, n.created_at AS createdAt,
         (SELECT count(*) FROM proxy_ips i WHERE i.node_id = n.id) AS exits,
         (SELECT count(*) FROM proxy_ips i WHERE i.node_id = n.id AND i.healthy = 1 AND i.expires_at > ?1) AS healthy,
         (SELECT count(DISTINCT a.ip_id) FROM ip_assignments a JOIN proxy_ips i ON i.id = a.ip_id
            WHERE i.node_id = n.id AND a.expires_at > ?1)
         + (SELECT count(*) FROM fixed_allocations f JOIN proxy_ips i ON i.id = f.ip_id
            WHERE i.node_id = n.id AND f.released_at = 0 AND f.expires_at > ?1) AS leased,
         CASE WHEN n.previous_until > ?1 THEN n.previous_until ELSE 0 END AS previousSecretUntil
       FROM proxy_nodes n ORDER BY n.id LIMIT 500`,
    )
    .bind(now)
    .all<AdminNodeRow>();
  return results;
}

export interface ExitHealthRow {
  nodeId: number;
  province: string;
  carrier: string;
  pool: number;
  total: number;
  healthy: number;
  /** Most recent heartbeat check of these exits. */
  checkedAt: number;
}

/** Exits per node, province, carrier and pool, with how many are healthy and unexpired now. */
export async function exitHealthByRegion(db: D1Database, now: number): Promise<ExitHealthRow[]> {
  const { results } = await db
    .prepare(
      `SELECT node_id AS nodeId, province, carrier, pool, count(*) AS total,
         sum(healthy = 1 AND expires_at > ?1) AS healthy, max(checked_at) AS checkedAt
       FROM proxy_ips GROUP BY node_id, province, carrier, pool
       ORDER BY node_id, province, carrier, pool LIMIT 2000`,
    )
    .bind(now)
    .all<ExitHealthRow>();
  return results.map((r) => ({ ...r, healthy: Number(r.healthy ?? 0) }));
}

export interface NodeRecord {
  id: number;
  name: string;
  status: number;
}

export async function findNodeAdmin(db: D1Database, id: number): Promise<NodeRecord | null> {
  return db.prepare('SELECT id, name, status FROM proxy_nodes WHERE id = ?').bind(id).first<NodeRecord>();
}

export async function nodeNameTaken(db: D1Database, name: string): Promise<boolean> {
  const row = await db
    .prepare('SELECT 1 AS x FROM proxy_nodes WHERE name = ? COLLATE NOCASE')
    .bind(name)
    .first<{ x: number }>();
  return row !== null;
}

/** A new active node with its signing secret; RETURNING id. */
export function insertNodeStatement(db: D1Database, name: string, secret: string, now: number): D1PreparedStatement {
  return db
    .prepare('INSERT INTO proxy_nodes (name, secret, status, created_at) VALUES (?, ?, 1, ?) RETURNING id')
    .bind(name, secret, now);
}

/** Enable (0 -> 1) or disable (1 -> 0) a node; changes nothing when it is already so. */
export function setNodeStatusStatement(db: D1Database, id: number, to: 0 | 1): D1PreparedStatement {
  return db.prepare('UPDATE proxy_nodes SET status = ?1 WHERE id = ?2 AND status = 1 - ?1').bind(to, id);
}

/**
 * A disabled node's exits leave the pool at once (extraction picks healthy exits only); its next accepted heartbeat
 * after being enabled again reports their health afresh.
 */
export function markNodeExitsUnhealthyStatement(db: D1Database, id: number, now: number): D1PreparedStatement {
  return db
    .prepare('UPDATE proxy_ips SET healthy = 0, checked_at = ?2 WHERE node_id = ?1 AND healthy = 1')
    .bind(id, now);
}

/** A node's stored (sealed or plain) signing secret, for a rotation to keep as the previous one. */
export async function findNodeStoredSecret(db: D1Database, id: number): Promise<string | null> {
  const row = await db.prepare('SELECT secret FROM proxy_nodes WHERE id = ?').bind(id).first<{ secret: string }>();
  return row?.secret ?? null;
}

/**
 * Replace a node's signing secret (sealed) while it still holds `storedOld` (a concurrent rotation makes this change
 * nothing). `previous` is the replaced secret, sealed, accepted until `previousUntil`; '' and 0 refuse it at once.
 */
export function rotateNodeSecretStatement(
  db: D1Database,
  r: { id: number; storedOld: string; sealed: string; previous: string; previousUntil: number },
): D1PreparedStatement {
  return db
    .prepare(
      'UPDATE proxy_nodes SET secret = ?3, previous_secret = ?4, previous_until = ?5 WHERE id = ?1 AND secret = ?2',
    )
    .bind(r.id, r.storedOld, r.sealed, r.previous, r.previousUntil);
}
