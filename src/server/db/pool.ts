// Queries for proxy nodes and their exit IPs: node lookup, heartbeat upserts, the white list nodes pull, usage
// reports, pool upkeep and the region lists shown in the get-proxy tool.
import { DAY_MS } from '../../lib/time';

export interface ProxyNode {
  id: number;
  name: string;
  /** Sealed with NODE_SECRET_KEY (or plain, from before it; docs/decisions/162). */
  secret: string;
  status: number;
  /** The secret the last rotation replaced (sealed), valid until previousUntil; '' when none. */
  previousSecret: string;
  previousUntil: number;
}

/** A node by id, or null: the one read of node authentication. */
export async function findNode(db: D1Database, id: number): Promise<ProxyNode | null> {
  return db
    .prepare(
      `SELECT id, name, secret, status, previous_secret AS previousSecret, previous_until AS previousUntil
       FROM proxy_nodes WHERE id = ?`,
    )
    .bind(id)
    .first<ProxyNode>();
}

/**
 * Accept a heartbeat's sequence number: only one higher than every one the node sent before (a replayed or reordered
 * heartbeat changes nothing). Without one (nodes from before the field) only while the node has never sent one.
 * True when the heartbeat may be applied.
 */
export async function acceptHeartbeatSeq(db: D1Database, nodeId: number, seq: number | undefined): Promise<boolean> {
  const res =
    seq === undefined
      ? await db.prepare('SELECT 1 FROM proxy_nodes WHERE id = ? AND heartbeat_seq = 0').bind(nodeId).run()
      : await db
          .prepare('UPDATE proxy_nodes SET heartbeat_seq = ?2 WHERE id = ?1 AND heartbeat_seq < ?2')
          .bind(nodeId, seq)
          .run();
  return seq === undefined ? res.results.length > 0 : res.meta.changes > 0;
}

/** Replace a plain stored secret by its sealed form (only while the row still holds that plain secret). */
export const sealNodeSecretStatement = (db: D1Database, id: number, plain: string, sealed: string) =>
  db.prepare('UPDATE proxy_nodes SET secret = ?3 WHERE id = ?1 AND secret = ?2').bind(id, plain, sealed);

/** The node signed with its new secret: the replaced one stops being accepted now. */
export const endNodeGraceStatement = (db: D1Database, id: number) =>
  db
    .prepare("UPDATE proxy_nodes SET previous_secret = '', previous_until = 0 WHERE id = ? AND previous_until > 0")
    .bind(id);

/** Nodes whose secret is still stored in plain (from before NODE_SECRET_KEY, or the development seed). */
export async function plainNodeSecrets(db: D1Database, limit: number): Promise<{ id: number; secret: string }[]> {
  const { results } = await db
    .prepare("SELECT id, secret FROM proxy_nodes WHERE secret NOT LIKE 'gcm1:%' ORDER BY id LIMIT ? + 0")
    .bind(limit)
    .all<{ id: number; secret: string }>();
  return results;
}

export interface HeartbeatIp {
  ip: string;
  port: number;
  pool: 10 | 30 | 40;
  protocols: number;
  province: string;
  city: string;
  provinceKey: string;
  cityKey: string;
  carrier: string;
  expiresAt: number;
  healthy: boolean;
}

/**
 * Register or refresh a node's IPs (one statement over a JSON array) and mark the node seen. An (ip, port) that
 * belongs to another node is never taken over, and an IP held by a live fixed allocation never changes pool; such
 * rows are ignored. Returns how many rows were accepted (inserted or refreshed) and ignored.
 */
export async function upsertNodeIps(
  db: D1Database,
  nodeId: number,
  ips: HeartbeatIp[],
  now: number,
): Promise<{ accepted: number; ignored: number }> {
  const payload = JSON.stringify(
    ips.map((i) => [
      i.ip,
      i.port,
      i.pool,
      i.protocols,
      i.province,
      i.city,
      i.provinceKey,
      i.cityKey,
      i.carrier,
      i.expiresAt,
      i.healthy ? 1 : 0,
    ]),
  );
  const [upsert] = await db.batch([
    db
      .prepare(
        `INSERT INTO proxy_ips (node_id, ip, port, pool, protocols, province, city, province_key, city_key, carrier,
                                expires_at, healthy, checked_at, created_at)
         SELECT ?1, value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', value ->> '$[3]', value ->> '$[4]',
                value ->> '$[5]', value ->> '$[6]', value ->> '$[7]', value ->> '$[8]', value ->> '$[9]',
                value ->> '$[10]', ?2, ?2
         FROM json_each(?3) WHERE true
         ON CONFLICT(ip, port) DO UPDATE SET node_id = excluded.node_id, pool = excluded.pool,
           protocols = excluded.protocols, province = excluded.province, city = excluded.city,
           province_key = excluded.province_key, city_key = excluded.city_key, carrier = excluded.carrier,
           expires_at = excluded.expires_at, healthy = excluded.healthy, checked_at = excluded.checked_at
         WHERE proxy_ips.node_id = excluded.node_id
           AND (proxy_ips.pool = excluded.pool OR NOT EXISTS (SELECT 1 FROM fixed_allocations f
             WHERE f.ip_id = proxy_ips.id AND f.released_at = 0))`,
      )
      .bind(nodeId, now, payload),
    db.prepare('UPDATE proxy_nodes SET last_seen_at = ? WHERE id = ?').bind(now, nodeId),
  ]);
  const accepted = Math.min(ips.length, upsert?.meta.changes ?? 0);
  return { accepted, ignored: ips.length - accepted };
}

/** Pool upkeep: mark expired IPs unhealthy and drop those expired for more than a day. */
export async function expirePoolIps(db: D1Database, now: number): Promise<{ expired: number; removed: number }> {
  const [a, b] = await db.batch([
    db.prepare('UPDATE proxy_ips SET healthy = 0 WHERE pool IN (10, 40) AND healthy = 1 AND expires_at <= ?').bind(now),
    db
      .prepare(
        'DELETE FROM proxy_ips WHERE pool IN (10, 40) AND expires_at <= ? AND id NOT IN (SELECT ip_id FROM fixed_allocations)',
      )
      .bind(now - DAY_MS),
  ]);
  return { expired: a?.meta.changes ?? 0, removed: b?.meta.changes ?? 0 };
}

/** Healthy IPs per province and city in a pool (region pickers). */
export async function poolRegions(
  db: D1Database,
  pool: number,
  now: number,
): Promise<{ province: string; city: string; count: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT province, city, count(*) AS n FROM proxy_ips WHERE pool = ? AND healthy = 1 AND expires_at > ?
       GROUP BY province, city ORDER BY n DESC, province, city`,
    )
    .bind(pool, now)
    .all<{ province: string; city: string; n: number }>();
  return results.map((r) => ({ province: r.province, city: r.city, count: r.n }));
}
