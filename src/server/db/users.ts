// Queries for users: lookup, registration, login bookkeeping. Rows are mapped to UserRecord.
import 'server-only';

export interface UserRecord {
  id: number;
  phone: string;
  passwordHash: string | null;
  status: number;
  role: 'user' | 'operator';
  failedLogins: number;
  lockedUntil: number;
  isIdentityAuth: boolean;
  companyAuthState: number;
  proxyApiOpened: boolean;
  createdAt: number;
  /** The assigned seller's phone (from the seller link at registration), or null. */
  sellerPhone: string | null;
}

export interface UserRow {
  id: number;
  phone: string;
  password_hash: string | null;
  status: number;
  role: 'user' | 'operator';
  failed_logins: number;
  locked_until: number;
  is_identity_auth: number;
  company_auth_state: number;
  proxy_api_opened: number;
  created_at: number;
  seller_phone: string | null;
}

export const mapUser = (r: UserRow): UserRecord => ({
  id: r.id,
  phone: r.phone,
  passwordHash: r.password_hash,
  status: r.status,
  role: r.role,
  failedLogins: r.failed_logins,
  lockedUntil: r.locked_until,
  isIdentityAuth: r.is_identity_auth === 1,
  companyAuthState: r.company_auth_state,
  proxyApiOpened: r.proxy_api_opened === 1,
  createdAt: r.created_at,
  sellerPhone: r.seller_phone ?? null,
});

/** The columns of a UserRow, read from the users table as `t` (its name or an alias). */
export const userColumns = (t: string) =>
  `${t}.id, ${t}.phone, ${t}.password_hash, ${t}.status, ${t}.role, ${t}.failed_logins, ${t}.locked_until, ` +
  `${t}.is_identity_auth, ${t}.company_auth_state, ${t}.proxy_api_opened, ${t}.created_at, ` +
  `(SELECT s.phone FROM sellers s WHERE s.id = ${t}.seller_id AND s.enabled = 1) AS seller_phone`;

const USER_COLUMNS = userColumns('users');

/** The user with this id, or null. */
export async function findUserById(db: D1Database, id: number): Promise<UserRecord | null> {
  const row = await db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).bind(id).first<UserRow>();
  return row ? mapUser(row) : null;
}

/** The user with this phone, or null. */
export async function findUserByPhone(db: D1Database, phone: string): Promise<UserRecord | null> {
  const row = await db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE phone = ?`).bind(phone).first<UserRow>();
  return row ? mapUser(row) : null;
}

/** Create the user for a phone if none exists (race-safe), then return it. */
export async function findOrCreateUserByPhone(
  db: D1Database,
  phone: string,
  sourceType: number,
  now: number,
): Promise<{ user: UserRecord; created: boolean }> {
  const res = await db
    .prepare(
      'INSERT INTO users (phone, source_type, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(phone) DO NOTHING',
    )
    .bind(phone, sourceType, now, now)
    .run();
  const user = await findUserByPhone(db, phone);
  if (!user) throw new Error('user vanished after insert');
  return { user, created: res.meta.changes === 1 };
}

/**
 * Reserve a password attempt before the password is checked, in one statement: count it as a failure and lock the
 * account when this is the maxFailures-th, but only while the account is not locked (a lapsed lock starts a fresh
 * count). Concurrent requests are serialised by the UPDATE, so at most maxFailures attempts are ever checked per lock
 * window. Returns the failure count including this attempt, or null when the account is locked. A successful check
 * clears the count (resetFailedLogins).
 */
export async function reservePasswordAttempt(
  db: D1Database,
  userId: number,
  maxFailures: number,
  lockUntil: number,
  now: number,
): Promise<number | null> {
  return reserveLockoutAttempt(db, 'users', userId, maxFailures, lockUntil, now);
}

/**
 * The one atomic lockout step shared by customers (`users`) and operators (`operators`): count a failure on an
 * unlocked row (a lapsed lock starts over at 1), set the lock on reaching `maxFailures`; null while locked.
 */
export async function reserveLockoutAttempt(
  db: D1Database,
  table: 'users' | 'operators',
  id: number,
  maxFailures: number,
  lockUntil: number,
  now: number,
): Promise<number | null> {
  const row = await db
    .prepare(
      `UPDATE ${table} SET
         failed_logins = CASE WHEN locked_until > 0 THEN 1 ELSE failed_logins + 1 END,
         locked_until = CASE WHEN (CASE WHEN locked_until > 0 THEN 1 ELSE failed_logins + 1 END) >= ?1 THEN ?2 ELSE 0 END,
         updated_at = ?3
       WHERE id = ?4 AND locked_until <= ?3
       RETURNING failed_logins`,
    )
    .bind(maxFailures, lockUntil, now, id)
    .first<{ failed_logins: number }>();
  return row ? row.failed_logins : null;
}

/** The counters for login names that have no account row to count on (keyed by the name itself). */
const NAME_COUNTERS = {
  login_phone_failures: 'phone',
  operator_name_failures: 'username',
} as const;

/**
 * reserveLockoutAttempt for a login name with no account row to count on: an unknown phone (or one registered by SMS
 * only) in login_phone_failures, a name that is not an active operator in operator_name_failures. Counted and locked
 * exactly like an account, so the answers, the lock included, do not tell which names exist. Returns the failure
 * count including this attempt, or null while the name is locked.
 */
export async function reserveNameLockoutAttempt(
  db: D1Database,
  table: keyof typeof NAME_COUNTERS,
  name: string,
  maxFailures: number,
  lockUntil: number,
  now: number,
): Promise<number | null> {
  const key = NAME_COUNTERS[table];
  const row = await db
    .prepare(
      `INSERT INTO ${table} (${key}, failures, locked_until, updated_at)
       VALUES (?1, 1, CASE WHEN 1 >= ?2 THEN ?3 ELSE 0 END, ?4)
       ON CONFLICT(${key}) DO UPDATE SET
         failures = CASE WHEN locked_until > 0 THEN 1 ELSE failures + 1 END,
         locked_until = CASE WHEN (CASE WHEN locked_until > 0 THEN 1 ELSE failures + 1 END) >= ?2 THEN ?3 ELSE 0 END,
         updated_at = ?4
       WHERE locked_until <= ?4
       RETURNING failures`,
    )
    .bind(name, maxFailures, lockUntil, now)
    .first<{ failures: number }>();
  return row ? row.failures : null;
}

/** The reservation for a phone without a password-holding account (reserveNameLockoutAttempt). */
export const reservePhonePasswordAttempt = (
  db: D1Database,
  phone: string,
  maxFailures: number,
  lockUntil: number,
  now: number,
): Promise<number | null> => reserveNameLockoutAttempt(db, 'login_phone_failures', phone, maxFailures, lockUntil, now);

/** Forget phone counters untouched since `before` whose lock (if any) has lapsed. */
export async function purgePhoneFailures(db: D1Database, before: number, now: number): Promise<number> {
  const res = await db
    .prepare('DELETE FROM login_phone_failures WHERE updated_at < ? AND locked_until <= ?')
    .bind(before, now)
    .run();
  return res.meta.changes;
}

/**
 * Record a password login attempt from a client IP only while that IP made fewer than `max` since `since` (the limit
 * is inside the INSERT, like the SMS limits). Returns the attempt id, or null when the limit is reached.
 */
export async function reserveIpLoginAttempt(
  db: D1Database,
  a: { ip: string; now: number; since: number; max: number },
): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO login_attempts (client_ip, created_at) SELECT ?1, ?2
       WHERE (SELECT count(*) FROM login_attempts WHERE client_ip = ?1 AND created_at > ?3) < ?4
       RETURNING id`,
    )
    .bind(a.ip, a.now, a.since, a.max)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Forget an IP attempt that turned out to be a successful login (only failures count against the IP). */
export async function releaseIpLoginAttempt(db: D1Database, id: number): Promise<void> {
  await db.prepare('DELETE FROM login_attempts WHERE id = ?').bind(id).run();
}

/** Delete IP login attempts recorded before a time; returns how many went. */
export async function purgeOldLoginAttempts(db: D1Database, before: number): Promise<number> {
  const res = await db.prepare('DELETE FROM login_attempts WHERE created_at < ?').bind(before).run();
  return res.meta.changes;
}

/** Clear the failure counter after a successful login or an expired lock. */
export async function resetFailedLogins(db: D1Database, userId: number, now: number): Promise<void> {
  await db
    .prepare('UPDATE users SET failed_logins = 0, locked_until = 0, updated_at = ? WHERE id = ?')
    .bind(now, userId)
    .run();
}

/** Store a new password hash. */
export async function setPasswordHash(db: D1Database, userId: number, hash: string, now: number): Promise<void> {
  await db
    .prepare('UPDATE users SET password_hash = ?, failed_logins = 0, locked_until = 0, updated_at = ? WHERE id = ?')
    .bind(hash, now, userId)
    .run();
}
