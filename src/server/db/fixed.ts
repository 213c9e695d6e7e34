// Queries for dedicated (fixed/premium) IP allocations: the user's list, remarks, area distribution, and the job
// that allocates IPs to new fixed packages and releases those of lapsed ones.

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
    const res = await db
      .prepare(
        `INSERT OR IGNORE INTO fixed_allocations (user_id, package_id, ip_id, ip, port, province, city, carrier,
                                                  allocated_at, expires_at)
         SELECT ?1, ?2, id, ip, port, province, city, carrier, ?3, ?4 FROM proxy_ips
         WHERE pool = 30 AND healthy = 1 AND expires_at > ?4
           AND (?6 = 0 OR (?8 != '' AND city_key = ?8) OR (?8 = '' AND ?7 != '' AND province_key = ?7))
           AND id NOT IN (SELECT ip_id FROM fixed_allocations WHERE released_at = 0)
         ORDER BY id LIMIT ?5`,
      )
      .bind(p.user_id, p.id, now, p.expires_at, p.missing, p.ordered, p.province_key, p.city_key)
      .run();
    total += res.meta.changes;
  }
  return total;
}

/** Follow renewals (allocation expiry = package expiry), then release allocations whose package lapsed. */
export async function releaseLapsedFixed(db: D1Database, now: number): Promise<number> {
  const [, released] = await db.batch([
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
