// Queries for dedicated (fixed/premium) IP allocations: the user's list, remarks, area distribution, and the job
// that allocates IPs to new fixed packages and releases those of lapsed ones.
import { allocationsStatement } from './node-feed';

export interface FixedAllocation {
  id: number;
  packageId: number;
  ip: string;
  port: number;
  province: string;
  city: string;
  carrier: string;
  remark: string;
  allocatedAt: number;
  expiresAt: number;
  releasedAt: number;
}

interface Row {
  id: number;
  package_id: number;
  ip: string;
  port: number;
  province: string;
  city: string;
  carrier: string;
  remark: string;
  allocated_at: number;
  expires_at: number;
  released_at: number;
}

const map = (r: Row): FixedAllocation => ({
  id: r.id,
  packageId: r.package_id,
  ip: r.ip,
  port: r.port,
  province: r.province,
  city: r.city,
  carrier: r.carrier,
  remark: r.remark,
  allocatedAt: r.allocated_at,
  expiresAt: r.expires_at,
  releasedAt: r.released_at,
});

/** A page of the user's allocations (live ones when liveAt is set), newest first. */
export async function listFixedAllocations(
  db: D1Database,
  r: { userId: number; liveAt: number | null; ip?: string | null; offset: number; limit: number },
): Promise<{ total: number; list: FixedAllocation[] }> {
  // ip: an exact address filter ('' = all), like the long-lived static list's.
  const where = `user_id = ?1 AND (?2 = 0 OR (released_at = 0 AND expires_at > ?2)) AND (?3 = '' OR ip = ?3)`;
  const binds = [r.userId, r.liveAt ?? 0, r.ip ?? ''];
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT count(*) AS n FROM fixed_allocations WHERE ${where}`).bind(...binds),
    db
      .prepare(
        `SELECT id, package_id, ip, port, province, city, carrier, remark, allocated_at, expires_at, released_at
         FROM fixed_allocations WHERE ${where} ORDER BY allocated_at DESC, id DESC LIMIT ?4 OFFSET ?5`,
      )
      .bind(...binds, r.limit, r.offset),
  ]);
  return {
    total: (count?.results[0]?.n as number) ?? 0,
    list: ((rows?.results ?? []) as unknown as Row[]).map(map),
  };
}

/** Set the remark of one of the user's allocations. */
export async function setFixedRemark(db: D1Database, userId: number, id: number, remark: string): Promise<boolean> {
  const res = await db
    .prepare('UPDATE fixed_allocations SET remark = ? WHERE id = ? AND user_id = ?')
    .bind(remark, id, userId)
    .run();
  return res.meta.changes === 1;
}

/** Live allocations per province. */
export async function fixedAreaDistribution(
  db: D1Database,
  userId: number,
  now: number,
): Promise<{ province: string; count: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT province, count(*) AS n FROM fixed_allocations WHERE user_id = ? AND released_at = 0 AND expires_at > ?
       GROUP BY province ORDER BY n DESC, province`,
    )
    .bind(userId, now)
    .all<{ province: string; n: number }>();
  return results.map((r) => ({ province: r.province, count: r.n }));
}

/** Live allocations of a user (the account panel's fixed row). */
export async function countLiveFixed(db: D1Database, userId: number, now: number): Promise<number> {
  const row = await db
    .prepare('SELECT count(*) AS n FROM fixed_allocations WHERE user_id = ? AND released_at = 0 AND expires_at > ?')
    .bind(userId, now)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Fill every live fixed/premium package up to its ip_count from free dedicated IPs of the region it was bought for
 * (package_terms.region_id -> meal_regions keys: the city when set, else the province). A package bought for a
 * region without free IPs stays under-allocated (待分配) rather than getting another region's IPs; only packages
 * that no order created (operator/demo grants, no terms) take any region. Returns IPs allocated.
 */
export async function allocateFixedIps(db: D1Database, now: number): Promise<number> {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.user_id, p.expires_at, p.ip_count - (SELECT count(*) FROM fixed_allocations f
         WHERE f.package_id = p.id AND f.released_at = 0) AS missing,
         t.package_id IS NOT NULL AS ordered, coalesce(r.province_key, '') AS province_key,
         coalesce(r.city_key, '') AS city_key
       FROM proxy_packages p LEFT JOIN package_terms t ON t.package_id = p.id
         LEFT JOIN meal_regions r ON r.id = t.region_id
       WHERE p.product_type IN (30, 50) AND p.state = 1 AND p.expires_at > ? AND p.ip_count > 0`,
    )
    .bind(now)
    .all<{
      id: number;
      user_id: number;
      expires_at: number;
      missing: number;
      ordered: number;
      province_key: string;
      city_key: string;
    }>();
  let total = 0;
  for (const p of results.filter((r) => r.missing > 0)) {
    // INSERT OR IGNORE + the one-holder index: an IP taken meanwhile by another package is skipped, never shared.
    // A region with neither key set matches no IP.
    const [res] = await db.batch([
      db
        .prepare(
          `INSERT OR IGNORE INTO fixed_allocations (user_id, package_id, ip_id, ip, port, province, city, carrier,
                                                    allocated_at, expires_at)
           SELECT ?1, ?2, id, ip, port, province, city, carrier, ?3, ?4 FROM proxy_ips
           WHERE pool = 30 AND healthy = 1 AND expires_at > ?4
             AND (?6 = 0 OR (?8 != '' AND city_key = ?8) OR (?8 = '' AND ?7 != '' AND province_key = ?7))
             AND id NOT IN (SELECT ip_id FROM fixed_allocations WHERE released_at = 0)
           ORDER BY id LIMIT ?5`,
        )
        .bind(p.user_id, p.id, now, p.expires_at, p.missing, p.ordered, p.province_key, p.city_key),
      // The new allocations, for the change feed of their nodes.
      allocationsStatement(db, 'f.package_id = ? AND f.allocated_at = ? AND f.released_at = 0', [p.id, now], now),
    ]);
    total += res?.meta.changes ?? 0;
  }
  return total;
}

/**
 * Follow renewals (allocation expiry = package expiry), then release allocations whose package lapsed; both are
 * announced in the node change feed.
 */
export async function releaseLapsedFixed(db: D1Database, now: number): Promise<number> {
  const followWhere = `f.released_at = 0
    AND f.expires_at != (SELECT p.expires_at FROM proxy_packages p WHERE p.id = f.package_id)`;
  const lapsedWhere = `f.released_at = 0 AND f.package_id IN
    (SELECT id FROM proxy_packages WHERE product_type IN (30, 50) AND (state != 1 OR expires_at <= ?))`;
  // Feed rows first, selected by the same conditions as the updates that follow them in this transaction.
  const [, , , released] = await db.batch([
    allocationsStatement(db, followWhere, [], now),
    allocationsStatement(db, lapsedWhere, [now], now),
    db.prepare(
      `UPDATE fixed_allocations SET expires_at = (SELECT p.expires_at FROM proxy_packages p WHERE p.id = package_id)
       WHERE released_at = 0 AND expires_at != (SELECT p.expires_at FROM proxy_packages p WHERE p.id = package_id)`,
    ),
    db
      .prepare(
        `UPDATE fixed_allocations SET released_at = ?1 WHERE released_at = 0 AND package_id IN
           (SELECT id FROM proxy_packages WHERE product_type IN (30, 50) AND (state != 1 OR expires_at <= ?1))`,
      )
      .bind(now),
  ]);
  return released?.meta.changes ?? 0;
}

/** Personal notices about an automatic replacement stay listed as current for this long. */
const REPLACE_NOTICE_MS = 30 * 86_400_000;
const htmlEscapedSql = (col: string) => `replace(replace(replace(${col}, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;

/**
 * Automatic replacement (User.IsAutoReplace, docs/decisions/095): every live allocation whose IP a node reported
 * unhealthy (proxy_ips.healthy = 0), held by a user with auto_replace on, moves to a free healthy dedicated IP of the
 * same region (province and city) that this package never held. Each move is one D1 batch (a transaction):
 *   1. release the old allocation, only while it is live and a candidate exists;
 *   2. allocate the candidate, only if step 1 changed a row (changes()); the one-holder unique index refuses an IP
 *      taken meanwhile and rolls the whole batch back, so an allocation is never lost and an IP never has two holders;
 *   3. write the user's personal notice, only if step 2 inserted (changes()), naming both addresses.
 * Allocations without a candidate stay as they are and are tried again on the next run. Returns moves made.
 */
export async function replaceUnhealthyFixed(db: D1Database, now: number, limit = 100): Promise<number> {
  const { results } = await db
    .prepare(
      `SELECT f.id, f.user_id, f.package_id, f.province, f.city, f.expires_at FROM fixed_allocations f
         JOIN users u ON u.id = f.user_id AND u.auto_replace = 1
         LEFT JOIN proxy_ips i ON i.id = f.ip_id
       WHERE f.released_at = 0 AND f.expires_at > ?1 AND (i.id IS NULL OR i.healthy = 0)
       ORDER BY f.id LIMIT ?2`,
    )
    .bind(now, limit)
    .all<{ id: number; user_id: number; package_id: number; province: string; city: string; expires_at: number }>();
  // ?1 allocation id, ?2 package id, ?3 now, ?4 province, ?5 city, ?6 allocation expiry.
  const candidate = `SELECT id FROM proxy_ips c
    WHERE c.pool = 30 AND c.healthy = 1 AND c.expires_at > ?6 AND c.province = ?4 AND c.city = ?5
      AND c.id NOT IN (SELECT ip_id FROM fixed_allocations WHERE released_at = 0)
      AND c.id NOT IN (SELECT ip_id FROM fixed_allocations WHERE package_id = ?2)
    ORDER BY c.id LIMIT 1`;
  let moved = 0;
  for (const a of results) {
    const binds = [a.id, a.package_id, now, a.province, a.city, a.expires_at];
    try {
      const [, inserted] = await db.batch([
        db
          .prepare(
            `UPDATE fixed_allocations SET released_at = ?3
             WHERE id = ?1 AND released_at = 0 AND expires_at > ?3 AND EXISTS (${candidate})`,
          )
          .bind(...binds),
        db
          .prepare(
            `INSERT INTO fixed_allocations (user_id, package_id, ip_id, ip, port, province, city, carrier, remark,
                                            allocated_at, expires_at)
             SELECT o.user_id, o.package_id, c.id, c.ip, c.port, c.province, c.city, c.carrier, o.remark, ?3, o.expires_at
             FROM fixed_allocations o, proxy_ips c
             WHERE o.id = ?1 AND c.id = (${candidate}) AND changes() = 1`,
          )
          .bind(...binds),
        db
          .prepare(
            `INSERT INTO home_notices (title, content_html, starts_at, ends_at, enabled, created_at, user_id)
             SELECT '固定IP已自动更换',
               '<p>您的固定IP <strong>' || ${htmlEscapedSql('o.ip')} || ':' || o.port || '</strong> 已失效，系统已按您的设置自动更换为同地区（'
                 || ${htmlEscapedSql('o.province || o.city')} || '）的 <strong>' || ${htmlEscapedSql('n.ip')} || ':' || n.port
                 || '</strong>，到期时间不变。请在“长效IP管理”中查看。</p>',
               ?3, ?3 + ${REPLACE_NOTICE_MS}, 1, ?3, o.user_id
             FROM fixed_allocations o, fixed_allocations n
             WHERE o.id = ?1 AND n.id = last_insert_rowid() AND n.package_id = o.package_id AND n.allocated_at = ?3
               AND changes() = 1`,
          )
          .bind(a.id, a.package_id, now),
      ]);
      if (inserted?.meta.changes === 1) moved += 1;
    } catch (err) {
      // The one-holder index refused (the candidate was taken meanwhile): the batch rolled back; next run retries.
      if (!String(err).includes('UNIQUE')) throw err;
    }
  }
  return moved;
}
