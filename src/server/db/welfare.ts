// Queries for the welfare trial: the offered meal, the identity key of a user, and the once-per-identity (and
// once-per-account) claim.
import { DAY_MS } from '../../lib/time';
import { COMPANY_VERIFIED_SQL } from '../../lib/company-states';

export interface WelfareMeal {
  id: number;
  name: string;
  productType: number;
  billingMethod: number;
  ipDurationMinutes: number;
  ipCount: number;
  validDays: number;
}

/** The enabled welfare meal (lowest id), or null. */
export async function findWelfareMeal(db: D1Database): Promise<WelfareMeal | null> {
  const r = await db.prepare('SELECT * FROM welfare_meals WHERE enabled = 1 ORDER BY id LIMIT 1').first<{
    id: number;
    name: string;
    product_type: number;
    billing_method: number;
    ip_duration_minutes: number;
    ip_count: number;
    valid_days: number;
  }>();
  return r
    ? {
        id: r.id,
        name: r.name,
        productType: r.product_type,
        billingMethod: r.billing_method,
        ipDurationMinutes: r.ip_duration_minutes,
        ipCount: r.ip_count,
        validDays: r.valid_days,
      }
    : null;
}

/**
 * The key that identifies the real person or company behind an account: the ID hash of a verified identity, else the
 * credit-code hash of an approved (or individual-accepted) company application; accounts verified before identities
 * were stored (demo data, imports) fall back to their account id. Null when none applies.
 */
export async function findIdentityKey(db: D1Database, userId: number): Promise<string | null> {
  const row = await db
    .prepare(
      `SELECT COALESCE(
         (SELECT 'id:' || id_hash FROM user_identities WHERE user_id = ?1),
         (SELECT 'co:' || credit_hash FROM company_auths WHERE user_id = ?1 AND state IN (${COMPANY_VERIFIED_SQL}) ORDER BY id DESC LIMIT 1),
         (SELECT 'acct:' || id FROM users WHERE id = ?1 AND is_identity_auth = 1)
       ) AS k`,
    )
    .bind(userId)
    .first<{ k: string | null }>();
  return row?.k ?? null;
}

/**
 * True when the identity key has claimed the trial, or when this account has claimed it under any key (an account's
 * key changes from acct: to co: to id: as it gains authentication; the trial stays once per account).
 */
export async function hasClaimedWelfare(db: D1Database, identityKey: string, userId: number): Promise<boolean> {
  return (
    (await db
      .prepare('SELECT 1 AS x FROM welfare_claims WHERE identity_key = ? OR user_id = ? LIMIT 1')
      .bind(identityKey, userId)
      .first()) !== null
  );
}

/**
 * Claim the trial and create its package in one transaction. UNIQUE(identity_key) lets exactly one claim per person
 * through, however many concurrent requests or accounts try; the NOT EXISTS guard and the partial unique index on
 * user_id (migrations/0008) let exactly one through per account, whatever key it claims under. The package is inserted
 * only for the claim this call made. Returns the new package id, or null when the identity or account had claimed.
 */
export async function claimWelfare(
  db: D1Database,
  c: { userId: number; identityKey: string; meal: WelfareMeal; now: number },
): Promise<number | null> {
  const ref = crypto.randomUUID();
  const m = c.meal;
  const expiresAt = c.now + m.validDays * DAY_MS;
  const count = m.billingMethod === 1 ? m.ipCount : 0;
  const daily = m.billingMethod === 2 ? m.ipCount : 0;
  const [claim, pkg] = await db.batch([
    db
      .prepare(
        `INSERT INTO welfare_claims (ref, user_id, identity_key, meal_id, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (SELECT 1 FROM welfare_claims WHERE user_id = ?2)
         ON CONFLICT DO NOTHING`,
      )
      .bind(ref, c.userId, c.identityKey, m.id, c.now),
    db
      .prepare(
        `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
           remaining_count, daily_limit, starts_at, expires_at, state, source, source_ref, created_at, updated_at)
         SELECT user_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 'welfare', 'W' || id, ?, ? FROM welfare_claims WHERE ref = ?
         RETURNING id`,
      )
      .bind(
        m.productType,
        m.billingMethod,
        m.name,
        m.ipDurationMinutes,
        count,
        count,
        daily,
        c.now,
        expiresAt,
        c.now,
        c.now,
        ref,
      ),
  ]);
  if (claim?.meta.changes !== 1) return null;
  const rows = (pkg?.results ?? []) as { id: number }[];
  return rows[0]?.id ?? null;
}

/**
 * For bindIdentity's batch: when the account has already claimed the trial (under a company or account key), keep the
 * personal identity it is binding claimed too (an alias row, no package), so the person cannot claim again on another
 * account should the identity ever move. Does nothing unless this verification's identity row was inserted.
 */
export function claimAliasForBoundIdentity(
  db: D1Database,
  b: { userId: number; idHash: string; verificationId: number; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO welfare_claims (ref, user_id, identity_key, meal_id, created_at, alias_of)
       SELECT ?1, c.user_id, 'id:' || ?3, c.meal_id, ?5, c.id FROM welfare_claims c
       WHERE c.user_id = ?2 AND c.alias_of IS NULL
         AND EXISTS (SELECT 1 FROM user_identities WHERE user_id = ?2 AND verification_id = ?4)
       ON CONFLICT DO NOTHING`,
    )
    .bind(crypto.randomUUID(), b.userId, b.idHash, b.verificationId, b.now);
}
