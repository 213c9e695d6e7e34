// Queries for dedicated (fixed/premium) IP allocations: the user's list, remarks, area distribution, and the job
// that allocates IPs to new fixed packages and releases those of lapsed ones.
import { runBatch } from './batch';
import { allocationsStatement } from './node-feed';
import { DAY_MS } from '../../lib/time';
import { PACKAGE_STATE } from '../../lib/package-states';
import { ON_OFF } from '../../lib/on-off-states';

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
         FROM fixed_allocations WHERE ${where} ORDER BY allocated_at DESC, id DESC LIMIT ?4 + 0 OFFSET ?5`,
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

/** Where a dedicated IP is taken from: the region's keys (city when set, else province), optionally one carrier. */
export interface DedicatedSource {
  /** False: any region (packages no order created and no grant pinned, e.g. demo ones). */
  pinned: boolean;
  provinceKey: string;
  cityKey: string;
  /** '' = any carrier. */
  carrier: string;
}

/**
 * The free dedicated IPs of a source, over proxy_ips: pool 30, healthy, outliving the package, leased to nobody now.
 * Its five parameters start at ?`at` (see freeDedicatedBinds). A pinned region with neither key set (overseas)
 * matches no IP.
 */
export const freeDedicatedSql = (at: number) => {
  const [expiry, pinned, province, city, carrier] = [0, 1, 2, 3, 4].map((i) => `?${at + i}`);
  return `pool = 30 AND healthy = 1 AND expires_at > ${expiry}
  AND (${pinned} = 0 OR (${city} != '' AND city_key = ${city}) OR (${city} = '' AND ${province} != '' AND province_key = ${province}))
  AND (${carrier} = '' OR carrier = ${carrier})
  AND id NOT IN (SELECT ip_id FROM fixed_allocations WHERE released_at = 0)`;
};

/** The values of freeDedicatedSql's parameters, in order. */
export const freeDedicatedBinds = (s: DedicatedSource, expiresAt: number) => [
  expiresAt,
  s.pinned ? 1 : 0,
  s.provinceKey,
  s.cityKey,
  s.carrier,
];

/** SQL true when the source has at least ?`countAt` free IPs (parameters of freeDedicatedSql from ?`at`). */
export const enoughFreeDedicatedSql = (at: number, countAt: number) =>
  `(SELECT count(*) FROM (SELECT id FROM proxy_ips WHERE ${freeDedicatedSql(at)} LIMIT ?${countAt} + 0)) = ?${countAt}`;

/**
 * Allocate up to `count` free dedicated IPs of `source` to a package, and announce them in the node change feed (two
 * statements for the caller's batch). `pkg` is the package id, or the source and source_ref of the package an earlier
 * statement of the same batch inserted for this user. `orIgnore`: an IP taken meanwhile by another package is skipped
 * (the job tops up later); otherwise the one-holder index refuses it and the whole batch rolls back. Never shares an
 * IP: fixed_allocations_one_holder allows one live holder per IP.
 */
export function allocateDedicatedStatements(
  db: D1Database,
  a: {
    userId: number;
    pkg: number | { source: string; sourceRef: string };
    now: number;
    expiresAt: number;
    count: number;
    source: DedicatedSource;
    orIgnore: boolean;
  },
): [D1PreparedStatement, D1PreparedStatement] {
  const byRef = typeof a.pkg === 'number' ? null : a.pkg;
  const pkgSql = (u: string, src: string, ref: string) =>
    `(SELECT max(id) FROM proxy_packages WHERE user_id = ${u} AND source = ${src} AND source_ref = ${ref})`;
  // ?1 user, ?2 package id, ?3 now, ?4 count, ?5-?9 the free-IP filter (?5 = the package's expiry), ?10-?11 by ref.
  const binds = [
    a.userId,
    typeof a.pkg === 'number' ? a.pkg : 0,
    a.now,
    a.count,
    ...freeDedicatedBinds(a.source, a.expiresAt),
    ...(byRef ? [byRef.source, byRef.sourceRef] : []),
  ];
  const target = byRef ? pkgSql('?1', '?10', '?11') : '?2';
  return [
    db
      .prepare(
        `INSERT ${a.orIgnore ? 'OR IGNORE ' : ''}INTO fixed_allocations (user_id, package_id, ip_id, ip, port, province,
           city, carrier, allocated_at, expires_at)
         SELECT ?1, ${target}, id, ip, port, province, city, carrier, ?3, ?5 FROM proxy_ips
         WHERE ${freeDedicatedSql(5)} AND ${target} IS NOT NULL
         ORDER BY id LIMIT ?4 + 0`,
      )
      .bind(...binds),
    // The new allocations, for the change feed of their nodes.
    byRef
      ? allocationsStatement(
          db,
          `f.package_id = ${pkgSql('?', '?', '?')} AND f.allocated_at = ? AND f.released_at = 0`,
          [a.userId, byRef.source, byRef.sourceRef, a.now],
          a.now,
        )
      : allocationsStatement(
          db,
          'f.package_id = ? AND f.allocated_at = ? AND f.released_at = 0',
          [a.pkg, a.now],
          a.now,
        ),
  ];
}

/** How many free dedicated IPs a source has for a package expiring at `expiresAt` (at most `limit`). */
export async function countFreeDedicated(
  db: D1Database,
  source: DedicatedSource,
  expiresAt: number,
  limit: number,
): Promise<number> {
  const row = await db
    .prepare(`SELECT count(*) AS n FROM (SELECT id FROM proxy_ips WHERE ${freeDedicatedSql(2)} LIMIT ?1 + 0)`)
    .bind(limit, ...freeDedicatedBinds(source, expiresAt))
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Fill every live fixed/premium package up to its ip_count from free dedicated IPs of the region it was bought for
 * (package_terms.region_id -> meal_regions keys: the city when set, else the province). A package bought for a
 * region without free IPs stays under-allocated (分配中) rather than getting another region's IPs; only packages
 * that no order created (operator/demo grants, no terms) take any region. Returns IPs allocated. With `userId`, only
 * that customer's packages (right after their payment; the 5-minute job covers everyone).
 */
export async function allocateFixedIps(db: D1Database, now: number, only?: { userId: number }): Promise<number> {
  const { results } = await db
    .prepare(
      `SELECT p.id, p.user_id, p.expires_at, p.ip_count - (SELECT count(*) FROM fixed_allocations f
         WHERE f.package_id = p.id AND f.released_at = 0) AS missing,
         t.package_id IS NOT NULL AS ordered, coalesce(r.province_key, '') AS province_key,
         coalesce(r.city_key, '') AS city_key
       FROM proxy_packages p LEFT JOIN package_terms t ON t.package_id = p.id
         LEFT JOIN meal_regions r ON r.id = t.region_id
       WHERE p.product_type IN (30, 50) AND p.state = ${PACKAGE_STATE.active} AND p.expires_at > ?1 AND p.ip_count > 0
         AND (?2 = 0 OR p.user_id = ?2)`,
    )
    .bind(now, only?.userId ?? 0)
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
    const [res] = await db.batch(
      allocateDedicatedStatements(db, {
        userId: p.user_id,
        pkg: p.id,
        now,
        expiresAt: p.expires_at,
        count: p.missing,
        source: { pinned: p.ordered === 1, provinceKey: p.province_key, cityKey: p.city_key, carrier: '' },
        orIgnore: true,
      }),
    );
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
    (SELECT id FROM proxy_packages WHERE product_type IN (30, 50) AND (state != ${PACKAGE_STATE.active} OR expires_at <= ?))`;
  // Feed rows first, selected by the same conditions as the updates that follow them in this transaction.
  const release = db
    .prepare(
      `UPDATE fixed_allocations SET released_at = ?1 WHERE released_at = 0 AND package_id IN
         (SELECT id FROM proxy_packages WHERE product_type IN (30, 50) AND (state != ${PACKAGE_STATE.active} OR expires_at <= ?1))`,
    )
    .bind(now);
  const batch = await runBatch(db, [
    allocationsStatement(db, followWhere, [], now),
    allocationsStatement(db, lapsedWhere, [now], now),
    db.prepare(
      `UPDATE fixed_allocations SET expires_at = (SELECT p.expires_at FROM proxy_packages p WHERE p.id = package_id)
       WHERE released_at = 0 AND expires_at != (SELECT p.expires_at FROM proxy_packages p WHERE p.id = package_id)`,
    ),
    release,
  ]);
  return batch.changes(release);
}

/** Personal notices about an automatic replacement stay listed as current for this long. */
const REPLACE_NOTICE_MS = 30 * DAY_MS;
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
       ORDER BY f.id LIMIT ?2 + 0`,
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
      const allocate = db
        .prepare(
          `INSERT INTO fixed_allocations (user_id, package_id, ip_id, ip, port, province, city, carrier, remark,
                                          allocated_at, expires_at)
           SELECT o.user_id, o.package_id, c.id, c.ip, c.port, c.province, c.city, c.carrier, o.remark, ?3, o.expires_at
           FROM fixed_allocations o, proxy_ips c
           WHERE o.id = ?1 AND c.id = (${candidate}) AND changes() = 1`,
        )
        .bind(...binds);
      const batch = await runBatch(db, [
        db
          .prepare(
            `UPDATE fixed_allocations SET released_at = ?3
             WHERE id = ?1 AND released_at = 0 AND expires_at > ?3 AND EXISTS (${candidate})`,
          )
          .bind(...binds),
        allocate,
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
      if (batch.changes(allocate) === 1) moved += 1;
    } catch (err) {
      // The one-holder index refused (the candidate was taken meanwhile): the batch rolled back; next run retries.
      if (!String(err).includes('UNIQUE')) throw err;
    }
  }
  return moved;
}

export interface DedicatedRegionStock {
  id: number;
  name: string;
  /** The dedicated types (30, 50) the region is offered for. */
  productTypes: number[];
  provinceKey: string;
  cityKey: string;
  /** Free dedicated IPs now, per carrier. */
  free: { 电信: number; 联通: number; 移动: number };
}

/** Regions offered for fixed or premium IPs, with their free dedicated IPs per carrier (the console's grant form). */
export async function dedicatedRegionStock(db: D1Database, now: number): Promise<DedicatedRegionStock[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.name, r.product_types, r.province_key, r.city_key, i.carrier, count(i.id) AS n
       FROM meal_regions r LEFT JOIN proxy_ips i ON i.pool = 30 AND i.healthy = 1 AND i.expires_at > ?1
         AND ((r.city_key != '' AND i.city_key = r.city_key) OR (r.city_key = '' AND r.province_key != '' AND i.province_key = r.province_key))
         AND i.id NOT IN (SELECT ip_id FROM fixed_allocations WHERE released_at = 0)
       WHERE r.state = ${ON_OFF.on} AND (',' || r.product_types || ',' LIKE '%,30,%' OR ',' || r.product_types || ',' LIKE '%,50,%')
       GROUP BY r.id, i.carrier ORDER BY r.sort, r.id`,
    )
    .bind(now)
    .all<{
      id: number;
      name: string;
      product_types: string;
      province_key: string;
      city_key: string;
      carrier: string | null;
      n: number;
    }>();
  const byId = new Map<number, DedicatedRegionStock>();
  for (const r of results) {
    let region = byId.get(r.id);
    if (!region) {
      region = {
        id: r.id,
        name: r.name,
        productTypes: r.product_types
          .split(',')
          .map(Number)
          .filter((t) => t === 30 || t === 50),
        provinceKey: r.province_key,
        cityKey: r.city_key,
        free: { 电信: 0, 联通: 0, 移动: 0 },
      };
      byId.set(r.id, region);
    }
    if (r.carrier === '电信' || r.carrier === '联通' || r.carrier === '移动') region.free[r.carrier] = r.n;
  }
  return [...byId.values()];
}
