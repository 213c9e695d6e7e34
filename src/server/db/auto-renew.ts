// Auto-renew from balance (migration 0040, docs/decisions/225): the customer's per-package opt-in, the packages due for
// a notice or a renewal, and the conditional claims that make each notice and each renewal happen once per period.
import 'server-only';
import { PACKAGE_STATE } from '../../lib/package-states';

/** Turn auto-renew on or off for one of the user's packages bought by an order and not retired; true when stored. */
export async function setAutoRenew(
  db: D1Database,
  r: { userId: number; packageId: number; enabled: boolean; now: number },
): Promise<boolean> {
  const res = await db
    .prepare(
      `INSERT INTO package_auto_renew (package_id, user_id, enabled, updated_at)
       SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM proxy_packages
         WHERE id = ?1 AND user_id = ?2 AND source = 'order' AND state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.expired}, ${PACKAGE_STATE.usedUp}))
       ON CONFLICT (package_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at
         WHERE package_auto_renew.user_id = excluded.user_id`,
    )
    .bind(r.packageId, r.userId, r.enabled ? 1 : 0, r.now)
    .run();
  return res.meta.changes === 1;
}

/** The user's packages with auto-renew on. */
export async function autoRenewPackageIds(db: D1Database, userId: number): Promise<Set<number>> {
  const { results } = await db
    .prepare('SELECT package_id FROM package_auto_renew WHERE user_id = ? AND enabled = 1')
    .bind(userId)
    .all<{ package_id: number }>();
  return new Set(results.map((r) => r.package_id));
}

export interface AutoRenewDue {
  packageId: number;
  userId: number;
  /** The customer's phone (the notices go to it by SMS too, when the deployment sends them). */
  phone: string;
  name: string;
  expiresAt: number;
  notifiedExpiry: number;
  shortExpiry: number;
}

/**
 * Packages with auto-renew on, bought by an order, live (active or used up), expiring after `now` and within
 * `horizonMs`, not yet renewed for this expiry; soonest first.
 */
export async function listAutoRenewDue(
  db: D1Database,
  now: number,
  horizonMs: number,
  limit: number,
): Promise<AutoRenewDue[]> {
  const { results } = await db
    .prepare(
      `SELECT a.package_id, a.user_id, u.phone, p.name, p.expires_at, a.notified_expiry, a.short_expiry
       FROM package_auto_renew a JOIN proxy_packages p ON p.id = a.package_id AND p.user_id = a.user_id
         JOIN users u ON u.id = a.user_id
       WHERE a.enabled = 1 AND p.source = 'order' AND p.state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.usedUp}) AND p.expires_at > ?1 AND p.expires_at <= ?2
         AND a.renewed_expiry != p.expires_at
       ORDER BY p.expires_at LIMIT ?3 + 0`,
    )
    .bind(now, now + horizonMs, limit)
    .all<{
      package_id: number;
      user_id: number;
      phone: string;
      name: string;
      expires_at: number;
      notified_expiry: number;
      short_expiry: number;
    }>();
  return results.map((r) => ({
    packageId: r.package_id,
    userId: r.user_id,
    phone: r.phone,
    name: r.name,
    expiresAt: r.expires_at,
    notifiedExpiry: r.notified_expiry,
    shortExpiry: r.short_expiry,
  }));
}

/**
 * SQL condition: the package `packageSql` still has auto-renew due for the period ending `expirySql` at `nowSql`, by the
 * same rule as listAutoRenewDue (opted in, bought by an order, live, that expiry still its expiry and in the future,
 * not renewed for it). A notice about that period applies only while this holds.
 */
export function stillDueForRenewalSql(packageSql: string, expirySql: string, nowSql: string): string {
  return `EXISTS (SELECT 1 FROM package_auto_renew a JOIN proxy_packages p ON p.id = a.package_id AND p.user_id = a.user_id
    WHERE a.package_id = ${packageSql} AND a.enabled = 1 AND p.source = 'order'
      AND p.state IN (${PACKAGE_STATE.active}, ${PACKAGE_STATE.usedUp}) AND p.expires_at = ${expirySql}
      AND p.expires_at > ${nowSql} AND a.renewed_expiry != p.expires_at)`;
}

/** How long an auto-renew notice stays listed as current. */
const NOTICE_MS = 30 * 86_400_000;

/**
 * Send the user a personal notice once for this package's expiry: `which` names the claim ('notified' before the
 * renewal, 'short' when the balance did not cover it). One batch: the claim, then the notice only if the claim took,
 * then `after` (a statement that runs only when the notice was written, e.g. queueNoticeSmsAfterClaim).
 * True when sent now.
 */
export async function noticeOnce(
  db: D1Database,
  r: { packageId: number; userId: number; expiry: number; which: 'notified' | 'short'; title: string; html: string },
  now: number,
  after?: D1PreparedStatement,
): Promise<boolean> {
  const column = r.which === 'notified' ? 'notified_expiry' : 'short_expiry';
  const [claim] = await db.batch([
    db
      .prepare(`UPDATE package_auto_renew SET ${column} = ?2 WHERE package_id = ?1 AND ${column} != ?2 AND enabled = 1`)
      .bind(r.packageId, r.expiry),
    db
      .prepare(
        `INSERT INTO home_notices (title, content_html, starts_at, ends_at, enabled, created_at, user_id)
         SELECT ?1, ?2, ?3, ?3 + ${NOTICE_MS}, 1, ?3, ?4 WHERE changes() = 1`,
      )
      .bind(r.title, r.html, now, r.userId),
    ...(after ? [after] : []),
  ]);
  return claim?.meta.changes === 1;
}

/** Claim the renewal of this period (once per expiry, whatever runs at the same time); true when this caller may renew. */
export async function claimRenewal(db: D1Database, packageId: number, expiry: number): Promise<boolean> {
  const res = await db
    .prepare(
      'UPDATE package_auto_renew SET renewed_expiry = ?2 WHERE package_id = ?1 AND renewed_expiry != ?2 AND enabled = 1',
    )
    .bind(packageId, expiry)
    .run();
  return res.meta.changes === 1;
}

/** The renewal of this period did not happen: the next run may try again. */
export async function releaseRenewal(db: D1Database, packageId: number, expiry: number): Promise<void> {
  await db
    .prepare('UPDATE package_auto_renew SET renewed_expiry = 0 WHERE package_id = ?1 AND renewed_expiry = ?2')
    .bind(packageId, expiry)
    .run();
}

/** Remember the order that renewed the package. */
export async function recordRenewalOrder(db: D1Database, packageId: number, orderNo: string, now: number) {
  await db
    .prepare('UPDATE package_auto_renew SET last_order_no = ?2, updated_at = ?3 WHERE package_id = ?1')
    .bind(packageId, orderNo, now)
    .run();
}

/** A personal notice to the user (the renewal it reports happened once: claimRenewal). */
export async function insertUserNotice(
  db: D1Database,
  r: { userId: number; title: string; html: string },
  now: number,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO home_notices (title, content_html, starts_at, ends_at, enabled, created_at, user_id)
       VALUES (?1, ?2, ?3, ?3 + ${NOTICE_MS}, 1, ?3, ?4)`,
    )
    .bind(r.title, r.html, now, r.userId)
    .run();
}

/** A package's expiry now (after a renewal moved it). */
export async function packageExpiry(db: D1Database, packageId: number): Promise<number | null> {
  const row = await db
    .prepare('SELECT expires_at FROM proxy_packages WHERE id = ?')
    .bind(packageId)
    .first<{ expires_at: number }>();
  return row?.expires_at ?? null;
}
