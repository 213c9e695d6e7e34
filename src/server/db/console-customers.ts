// Queries behind the console's customer screens: search, the detail view, and the suspend / restore / unlock
// statements (run with their audit row by the caller).
import type { CustomerMatchKind } from '../../lib/customer-search';
import { DAY_MS } from '../../lib/time';

/**
 * A customer's charged calls and IPs since ?2 (by the hour): counted per hour since decision 243 (their logs are in the
 * customer's object), plus the calls still logged in D1 from before; the IPs of both are in the hour counters.
 */
const CHARGED_SINCE = `SELECT
    (SELECT coalesce(sum(charged), 0) FROM extract_hour_counts WHERE user_id = ?1 AND hour_start >= ?2 / 3600000 * 3600000)
      + (SELECT count(*) FROM extract_logs WHERE user_id = ?1 AND created_at >= ?2 AND code = 0) AS calls,
    (SELECT sum(ips) FROM extract_hour_counts WHERE user_id = ?1 AND hour_start >= ?2 / 3600000 * 3600000) AS ips`;

export interface CustomerRow {
  id: number;
  phone: string;
  status: number;
  isIdentityAuth: number;
  companyAuthState: number;
  createdAt: number;
}

const CUSTOMER_COLUMNS =
  'u.id, u.phone, u.status, u.is_identity_auth AS isIdentityAuth, u.company_auth_state AS companyAuthState, u.created_at AS createdAt';

/** The newest customers (an empty search). */
export async function latestCustomers(db: D1Database, limit: number): Promise<CustomerRow[]> {
  const { results } = await db
    .prepare(`SELECT ${CUSTOMER_COLUMNS} FROM users u ORDER BY u.id DESC LIMIT ? + 0`)
    .bind(limit)
    .all<CustomerRow>();
  return results;
}

/** The WHERE clause of each reading of a search term (customer-search.ts); ?1 is the term. */
const MATCH_WHERE: Record<CustomerMatchKind, string> = {
  phone: 'u.phone = ?1',
  // Served by the expression index users_phone_tail (migration 0031): the same expression, no scan.
  phoneTail: 'substr(u.phone, -4) = ?1',
  phonePrefix: "u.phone >= ?1 AND u.phone < ?1 || ':'",
  id: 'u.id = CAST(?1 AS INTEGER)',
  order: 'u.id = (SELECT user_id FROM orders WHERE order_no = ?1)',
};

/** Customers matching one reading of a search term, newest first. */
export async function findCustomersBy(
  db: D1Database,
  kind: CustomerMatchKind,
  term: string,
  limit: number,
): Promise<CustomerRow[]> {
  const { results } = await db
    .prepare(`SELECT ${CUSTOMER_COLUMNS} FROM users u WHERE ${MATCH_WHERE[kind]} ORDER BY u.id DESC LIMIT ?2 + 0`)
    .bind(term, limit)
    .all<CustomerRow>();
  return results;
}

export interface CustomerDetailRows {
  user:
    | (CustomerRow & { failedLogins: number; lockedUntil: number; sourceType: number; updatedAt: number })
    | undefined;
  identity: { nameMasked: string; idMasked: string; verifiedAt: number } | undefined;
  packages: {
    id: number;
    productType: number;
    name: string;
    remainingCount: number;
    dailyLimit: number;
    state: number;
    source: string;
    expiresAt: number;
  }[];
  orders: { orderNo: string; title: string; payFen: number; state: number; createdAt: number; paidAt: number | null }[];
  whiteList: { ip: string; enabled: number; remark: string }[];
  extraction: { calls24h: number; ips24h: number; calls30d: number; ips30d: number };
  promoter: { id: number; phone: string } | undefined;
  invitees: number;
}

/** Everything the customer detail screen shows (the identity only masked). */
export async function customerDetail(db: D1Database, userId: number, now: number): Promise<CustomerDetailRows> {
  const [user, identity, packages, orders, whiteList, ext24, ext30, promoter, invitees] = await db.batch<
    Record<string, unknown>
  >([
    db
      .prepare(
        `SELECT ${CUSTOMER_COLUMNS}, u.failed_logins AS failedLogins, u.locked_until AS lockedUntil,
           u.source_type AS sourceType, u.updated_at AS updatedAt FROM users u WHERE u.id = ?`,
      )
      .bind(userId),
    db
      .prepare(
        'SELECT name_masked AS nameMasked, id_masked AS idMasked, verified_at AS verifiedAt FROM user_identities WHERE user_id = ?',
      )
      .bind(userId),
    db
      .prepare(
        `SELECT id, product_type AS productType, name, remaining_count AS remainingCount, daily_limit AS dailyLimit,
           state, source, expires_at AS expiresAt FROM proxy_packages WHERE user_id = ? ORDER BY id DESC LIMIT 30`,
      )
      .bind(userId),
    db
      .prepare(
        `SELECT order_no AS orderNo, title, pay_fen AS payFen, state, created_at AS createdAt, paid_at AS paidAt
         FROM orders WHERE user_id = ? ORDER BY created_at DESC LIMIT 20`,
      )
      .bind(userId),
    db.prepare('SELECT ip, enabled, remark FROM white_list WHERE user_id = ? ORDER BY id LIMIT 50').bind(userId),
    db.prepare(CHARGED_SINCE).bind(userId, now - DAY_MS),
    db.prepare(CHARGED_SINCE).bind(userId, now - 30 * DAY_MS),
    db
      .prepare('SELECT p.id, p.phone FROM invitations i JOIN users p ON p.id = i.promoter_id WHERE i.invitee_id = ?')
      .bind(userId),
    db.prepare('SELECT count(*) AS n FROM invitations WHERE promoter_id = ?').bind(userId),
  ]);
  const first = <T>(r: D1Result<Record<string, unknown>> | undefined) => r?.results[0] as T | undefined;
  const all = <T>(r: D1Result<Record<string, unknown>> | undefined) => (r?.results ?? []) as T[];
  const e24 = first<{ calls: number; ips: number | null }>(ext24);
  const e30 = first<{ calls: number; ips: number | null }>(ext30);
  return {
    user: first(user),
    identity: first(identity),
    packages: all(packages),
    orders: all(orders),
    whiteList: all(whiteList),
    extraction: {
      calls24h: e24?.calls ?? 0,
      ips24h: e24?.ips ?? 0,
      calls30d: e30?.calls ?? 0,
      ips30d: e30?.ips ?? 0,
    },
    promoter: first(promoter),
    invitees: Number(first<{ n: number }>(invitees)?.n ?? 0),
  };
}

/** The UPDATE that moves a customer from one status to another (1 active, 2 suspended), only from `from`. */
export function setCustomerStatusStatement(
  db: D1Database,
  s: { userId: number; from: 1 | 2; to: 1 | 2; now: number },
): D1PreparedStatement {
  return db
    .prepare('UPDATE users SET status = ?, updated_at = ? WHERE id = ? AND status = ?')
    .bind(s.to, s.now, s.userId, s.from);
}

/** The DELETE of a customer's sessions (a suspended customer is logged out everywhere). */
export function deleteCustomerSessionsStatement(db: D1Database, userId: number): D1PreparedStatement {
  return db.prepare('DELETE FROM sessions WHERE user_id = ?').bind(userId);
}

/** The UPDATE that lifts a password lock (only when one is set or failures were counted). */
export function unlockCustomerStatement(db: D1Database, userId: number, now: number): D1PreparedStatement {
  return db
    .prepare(
      'UPDATE users SET failed_logins = 0, locked_until = 0, updated_at = ? WHERE id = ? AND (locked_until > 0 OR failed_logins > 0)',
    )
    .bind(now, userId);
}
