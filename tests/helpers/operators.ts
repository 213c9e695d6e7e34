// Test helpers for the operator console: create operator accounts and log them in through the real flow (password,
// TOTP enrolment, code), returning the operator cookie.
import { env } from 'cloudflare:test';
import type { AccountStatus } from '../../src/lib/console-states';
import { ON_OFF } from '../../src/lib/on-off-states';
import type { OperatorRole } from '../../src/lib/operator-roles';
import { hashPassword } from '../../src/server/crypto';
import { findOperatorById } from '../../src/server/db/operators';
import { regionKey } from '../../src/server/domain/regions';
import { totpCodeAt } from '../../src/server/domain/operators';
import { callApi, cookieJar } from './api';

export const OPERATOR_PASSWORD = 'operator-pass-1234';
let seq = 0;

/** Insert an operator (no second factor yet); returns its id and username. */
export async function createOperatorRow(
  role: OperatorRole,
  username = `op_${role}_${++seq}_${Date.now() % 100000}`,
  password = OPERATOR_PASSWORD,
): Promise<{ id: number; username: string }> {
  const now = Date.now();
  const row = await env.DB.prepare(
    `INSERT INTO operators (username, display_name, role, password_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(username, `测试${role}`, role, await hashPassword(password), now, now)
    .first<{ id: number }>();
  if (!row) throw new Error('operator insert failed');
  return { id: row.id, username };
}

export interface OperatorLogin {
  id: number;
  username: string;
  secret: string;
  cookie: string;
}

/** Create an operator of a role and log in (enrolling TOTP); the cookie carries the active operator session. */
export async function operatorLogin(role: OperatorRole = 'admin', ip = '198.51.100.200'): Promise<OperatorLogin> {
  const { id, username } = await createOperatorRow(role);
  const login = await callApi('Operator.Login', { username, password: OPERATOR_PASSWORD }, { ip });
  if (login.body.E) throw new Error(login.body.E);
  let cookie = cookieJar(login.setCookies);
  const enrol = await callApi('Operator.TotpEnrol', {}, { cookie, ip });
  const secret = enrol.body.P?.secret;
  if (!secret) throw new Error(enrol.body.E);
  const verified = await callApi('Operator.TotpVerify', { code: totpCodeAt(secret, Date.now()) }, { cookie, ip });
  if (verified.body.E) throw new Error(verified.body.E);
  cookie = cookieJar(verified.setCookies, cookie);
  return { id, username, secret, cookie };
}

/** Just the cookie of a freshly logged-in operator of a role. */
export const operatorCookie = async (role: OperatorRole = 'admin'): Promise<string> =>
  (await operatorLogin(role)).cookie;

// --- the operator records and sessions, read and forced by name (the integration tests hold no SQL) ---

/** The stored sealed TOTP secret of an operator (null before enrolment). */
export async function sealedTotpSecret(operatorId: number): Promise<string | null> {
  return (await findOperatorById(env.DB, operatorId))?.totpSecretEnc ?? null;
}

/** Forget the last TOTP step an operator used (time has passed: the next code is newer than every one used). */
export async function forgetTotpStep(operatorId: number): Promise<void> {
  await env.DB.prepare('UPDATE operators SET totp_last_step = 0 WHERE id = ?').bind(operatorId).run();
}

/** Set an operator account's status (disabled by an admin, or active again). */
export async function setOperatorStatus(operatorId: number, status: AccountStatus): Promise<void> {
  await env.DB.prepare('UPDATE operators SET status = ? WHERE id = ?').bind(status, operatorId).run();
}

/** How many failed logins are counted against a username no operator holds. */
export async function unknownNameFailures(username: string): Promise<number> {
  const row = await env.DB.prepare('SELECT failures FROM operator_name_failures WHERE username = ?')
    .bind(username)
    .first<{ failures: number }>();
  return row?.failures ?? 0;
}

/** Every operator session was last seen at `at` (or only one operator's). */
export async function setOperatorSessionsLastSeen(at: number, operatorId?: number): Promise<void> {
  if (operatorId === undefined) await env.DB.prepare('UPDATE operator_sessions SET last_seen_at = ?').bind(at).run();
  else
    await env.DB.prepare('UPDATE operator_sessions SET last_seen_at = ? WHERE operator_id = ?')
      .bind(at, operatorId)
      .run();
}

/** The operator ids holding a session, one per session, ascending. */
export async function operatorSessionHolders(): Promise<number[]> {
  const { results } = await env.DB.prepare('SELECT operator_id FROM operator_sessions ORDER BY operator_id').all<{
    operator_id: number;
  }>();
  return results.map((r) => r.operator_id);
}

// --- the audit log ---

export interface AuditRow {
  id: number;
  operatorId: number | null;
  operatorName: string;
  role: string;
  action: string;
  target: string;
  beforeSummary: string;
  afterSummary: string;
  reason: string;
  clientIp: string;
  createdAt: number;
}

interface AuditDbRow {
  id: number;
  operator_id: number | null;
  operator_name: string;
  role: string;
  action: string;
  target: string;
  before_summary: string;
  after_summary: string;
  reason: string;
  client_ip: string;
  created_at: number;
}

/** Which audit rows to read: by operator (null: rows without one), action, target; login events left out on request. */
export interface AuditFilter {
  operatorId?: number | null;
  action?: string;
  target?: string;
  /** Leave out the login, TOTP and password events (actions named Operator.*). */
  withoutOperatorEvents?: boolean;
}

/** The audit rows matching a filter, oldest first (the log is append-only: rows of earlier tests in a file stay). */
export async function auditRows(filter: AuditFilter = {}): Promise<AuditRow[]> {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (filter.operatorId === null) where.push('operator_id IS NULL');
  else if (filter.operatorId !== undefined) {
    where.push('operator_id = ?');
    binds.push(filter.operatorId);
  }
  if (filter.action !== undefined) {
    where.push('action = ?');
    binds.push(filter.action);
  }
  if (filter.target !== undefined) {
    where.push('target = ?');
    binds.push(filter.target);
  }
  if (filter.withoutOperatorEvents) where.push("action NOT LIKE 'Operator.%'");
  const { results } = await env.DB.prepare(
    `SELECT * FROM audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id`,
  )
    .bind(...binds)
    .all<AuditDbRow>();
  return results.map((r) => ({
    id: r.id,
    operatorId: r.operator_id,
    operatorName: r.operator_name,
    role: r.role,
    action: r.action,
    target: r.target,
    beforeSummary: r.before_summary,
    afterSummary: r.after_summary,
    reason: r.reason,
    clientIp: r.client_ip,
    createdAt: r.created_at,
  }));
}

/** Try to overwrite an existing audit row with INSERT OR REPLACE (the log must refuse: it is append-only). */
export async function replaceAuditRow(id: number): Promise<void> {
  await env.DB.prepare(
    `INSERT OR REPLACE INTO audit_log (id, operator_id, operator_name, role, action, client_ip, created_at)
     VALUES (?, NULL, 'x', 'none', 'Forged', '1.1.1.1', 0)`,
  )
    .bind(id)
    .run();
}

// --- delivery facts the console tests read and force (nodes, exits, leases, usage, granted packages). These belong to
// the delivery domain: written here while tests/helpers/delivery.ts is edited elsewhere, for the lead to merge. ---

export interface ExitRowSpec {
  nodeId: number;
  ip: string;
  port: number;
  pool?: 10 | 30 | 40;
  province?: string;
  city?: string;
  carrier?: '电信' | '联通' | '移动';
  expiresAt: number;
  healthy?: boolean;
}

/** Store one healthy exit of a node as its heartbeat would (never checked yet). */
export async function addExitRow(e: ExitRowSpec): Promise<void> {
  const province = e.province ?? '广东省';
  const city = e.city ?? '深圳市';
  await env.DB.prepare(
    `INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key, carrier,
       expires_at, healthy, checked_at, created_at) VALUES (?, ?, ?, ?, 7, ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
  )
    .bind(
      e.nodeId,
      e.pool ?? 10,
      e.ip,
      e.port,
      province,
      city,
      regionKey(province),
      regionKey(city),
      e.carrier ?? '电信',
      e.expiresAt,
      e.healthy === false ? 0 : 1,
    )
    .run();
}

/** An exit by its address: its id and whether it counts as healthy; null when there is none. */
export async function exitByIp(ip: string): Promise<{ id: number; healthy: boolean } | null> {
  const row = await env.DB.prepare('SELECT id, healthy FROM proxy_ips WHERE ip = ?')
    .bind(ip)
    .first<{ id: number; healthy: number }>();
  return row ? { id: row.id, healthy: row.healthy === 1 } : null;
}

/** Mark an exit (by address) healthy or unhealthy. */
export async function setExitHealthy(ip: string, healthy: boolean): Promise<void> {
  await env.DB.prepare('UPDATE proxy_ips SET healthy = ? WHERE ip = ?')
    .bind(healthy ? 1 : 0, ip)
    .run();
}

/** Every exit healthy but never checked (so the upkeep job finds them stale). */
export async function markExitsHealthyUnchecked(): Promise<void> {
  await env.DB.prepare('UPDATE proxy_ips SET checked_at = 0, healthy = 1').run();
}

/** How many healthy exits a node has. */
export async function healthyExitCount(nodeId: number): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM proxy_ips WHERE node_id = ? AND healthy = 1')
    .bind(nodeId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** How many proxy nodes are registered. */
export async function nodeCount(): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM proxy_nodes').first<{ n: number }>())?.n ?? 0;
}

/** Every node claims the given contract version (ignored where the column does not exist). */
export async function setNodesContractVersion(version: number): Promise<void> {
  await env.DB.prepare('UPDATE proxy_nodes SET contract_version = ?')
    .bind(version)
    .run()
    .catch(() => undefined);
}

/** How many rows the node change feed holds (or of one kind, e.g. 'f' for fixed allocations). */
export async function nodeFeedLength(kind?: string): Promise<number> {
  const row =
    kind === undefined
      ? await env.DB.prepare('SELECT count(*) AS n FROM node_changes').first<{ n: number }>()
      : await env.DB.prepare('SELECT count(*) AS n FROM node_changes WHERE kind = ?').bind(kind).first<{ n: number }>();
  return row?.n ?? 0;
}

export interface LeaseSpec {
  userId: number;
  packageId: number;
  ipId: number;
  ip: string;
  port: number;
  assignedAt: number;
  expiresAt: number;
}

/** A dynamic lease of an exit to a user's package (an extraction's assignment row). */
export async function leaseExit(l: LeaseSpec): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO ip_assignments (user_id, package_id, ip_id, product_type, ip, port, protocol, region, carrier, day,
       assigned_at, expires_at) VALUES (?, ?, ?, 10, ?, ?, 'http', '广东省深圳市', '电信', '2026-01-01', ?, ?)`,
  )
    .bind(l.userId, l.packageId, l.ipId, l.ip, l.port, l.assignedAt, l.expiresAt)
    .run();
}

/** How many node usage rows are stored (or for one user). */
export async function nodeUsageCount(userId?: number): Promise<number> {
  const row =
    userId === undefined
      ? await env.DB.prepare('SELECT count(*) AS n FROM node_usage').first<{ n: number }>()
      : await env.DB.prepare('SELECT count(*) AS n FROM node_usage WHERE user_id = ?')
          .bind(userId)
          .first<{ n: number }>();
  return row?.n ?? 0;
}

export interface UsageRowSpec {
  batchId: string;
  userId: number;
  ip: string;
  port: number;
  clientIp: string;
  periodStart: number;
  periodEnd: number;
  bytesIn: number;
  receivedAt: number;
}

/** Store node usage rows for node 1 straight away, past the bounds the usage route checks (rows from before them). */
export async function storeUsageRowsUnchecked(rows: UsageRowSpec[]): Promise<void> {
  await env.DB.batch(
    rows.map((r) =>
      env.DB.prepare(
        `INSERT INTO node_usage (node_id, batch_id, user_id, ip, port, client_ip, period_start, period_end, bytes_in, bytes_out, connections, received_at)
         VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1, ?)`,
      ).bind(r.batchId, r.userId, r.ip, r.port, r.clientIp, r.periodStart, r.periodEnd, r.bytesIn, r.receivedAt),
    ),
  );
}

/** The tables a test may break for the length of a run (to prove one failing step does not stop the others). */
export type BreakableTable = 'white_list';

/** Run `fn` with a table renamed away (every statement on it fails), and put it back afterwards. */
export async function withTableMissing<T>(table: BreakableTable, fn: () => Promise<T>): Promise<T> {
  await env.DB.prepare(`ALTER TABLE ${table} RENAME TO ${table}_away`).run();
  try {
    return await fn();
  } finally {
    await env.DB.prepare(`ALTER TABLE ${table}_away RENAME TO ${table}`).run();
  }
}

/** How many packages operators granted (all, or one user's). */
export async function operatorGrantedPackages(userId?: number): Promise<number> {
  const row =
    userId === undefined
      ? await env.DB.prepare("SELECT count(*) AS n FROM proxy_packages WHERE source = 'operator'").first<{
          n: number;
        }>()
      : await env.DB.prepare("SELECT count(*) AS n FROM proxy_packages WHERE source = 'operator' AND user_id = ?")
          .bind(userId)
          .first<{ n: number }>();
  return row?.n ?? 0;
}

export interface MealRegionSpec {
  id: number;
  name: string;
  province: string;
  provinceKey: string;
  cityKey: string;
  productTypes: number[];
}

/** Offer regions for sale (on) under chosen ids, in one batch. */
export async function addMealRegions(regions: MealRegionSpec[]): Promise<void> {
  await env.DB.batch(
    regions.map((r) =>
      env.DB.prepare(
        `INSERT INTO meal_regions (id, name, province, province_key, city_key, product_types, state)
         VALUES (?, ?, ?, ?, ?, ?, ${ON_OFF.on})`,
      ).bind(r.id, r.name, r.province, r.provinceKey, r.cityKey, r.productTypes.join(',')),
    ),
  );
}

/** How many fixed-IP allocations a user holds that are not released. */
export async function liveFixedAllocations(userId: number): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM fixed_allocations WHERE user_id = ? AND released_at = 0')
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export interface PackageFacts {
  userId: number;
  source: string;
  ipCount: number;
  remainingCount: number;
  /** Allocations of the package. */
  allocations: number;
  /** Of those, the ones that expire exactly with the package. */
  expiringWithPackage: number;
}

/** A package's owner, source, IP count, remaining count and fixed-IP allocations; null when there is none. */
export async function packageFacts(packageId: number): Promise<PackageFacts | null> {
  const row = await env.DB.prepare(
    `SELECT p.user_id, p.source, p.ip_count, p.remaining_count,
       (SELECT count(*) FROM fixed_allocations f WHERE f.package_id = p.id) AS allocations,
       (SELECT count(*) FROM fixed_allocations f WHERE f.package_id = p.id AND f.expires_at = p.expires_at) AS expiring
     FROM proxy_packages p WHERE p.id = ?`,
  )
    .bind(packageId)
    .first<{
      user_id: number;
      source: string;
      ip_count: number;
      remaining_count: number;
      allocations: number;
      expiring: number;
    }>();
  return row
    ? {
        userId: row.user_id,
        source: row.source,
        ipCount: row.ip_count,
        remainingCount: row.remaining_count,
        allocations: row.allocations,
        expiringWithPackage: row.expiring,
      }
    : null;
}

/** How many customers are assigned to a seller. */
export async function sellerCustomerCount(sellerId: number): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM users WHERE seller_id = ?')
    .bind(sellerId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** How many meals exist in any state (or carry a name). */
export async function mealCount(name?: string): Promise<number> {
  const row =
    name === undefined
      ? await env.DB.prepare('SELECT count(*) AS n FROM meals').first<{ n: number }>()
      : await env.DB.prepare('SELECT count(*) AS n FROM meals WHERE name = ?').bind(name).first<{ n: number }>();
  return row?.n ?? 0;
}

export interface StoredRegion {
  productTypes: string;
  provinceKey: string;
  cityKey: string;
  state: number;
}

/** A sale region's stored product types (comma separated), match keys and state; null when there is none. */
export async function storedRegion(id: number): Promise<StoredRegion | null> {
  const row = await env.DB.prepare('SELECT product_types, province_key, city_key, state FROM meal_regions WHERE id = ?')
    .bind(id)
    .first<{ product_types: string; province_key: string; city_key: string; state: number }>();
  return row
    ? { productTypes: row.product_types, provinceKey: row.province_key, cityKey: row.city_key, state: row.state }
    : null;
}

/** The total count of the package an order delivered (null before it is delivered). */
export async function deliveredPackageTotal(orderNo: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT total_count FROM proxy_packages WHERE source = 'order' AND source_ref = ?")
    .bind(orderNo)
    .first<{ total_count: number }>();
  return row?.total_count ?? null;
}

/** The per-user extraction rate counters (user 0: the benchmark D1 floor's writes), by user. */
export async function extractRateCounters(): Promise<{ userId: number; count: number }[]> {
  const { results } = await env.DB.prepare('SELECT user_id, count FROM extract_rate ORDER BY user_id').all<{
    user_id: number;
    count: number;
  }>();
  return results.map((r) => ({ userId: r.user_id, count: r.count }));
}
