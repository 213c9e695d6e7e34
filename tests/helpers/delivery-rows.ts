// Delivery-domain fixtures the console, retention and edge tests read and force: exits, nodes and their change feed,
// leases, node usage, fixed allocations, extraction logs and rate counters, and the retention runs over them. Kept
// apart from tests/helpers/delivery.ts while that module is edited elsewhere; the lead folds the two together.
import { env } from 'cloudflare:test';
import { regionKey } from '../../src/server/domain/regions';
import { loginAttemptsFrom } from './accounts';
import { count, when } from './rows';

// --- exits and nodes ---

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
export const healthyExitCount = (nodeId: number) =>
  count('proxy_ips', [when('node_id = ?', nodeId), ['healthy = 1', []]]);

/** How many proxy nodes are registered. */
export const nodeCount = () => count('proxy_nodes');

/** Every node claims the given contract version (ignored where the column does not exist). */
export async function setNodesContractVersion(version: number): Promise<void> {
  await env.DB.prepare('UPDATE proxy_nodes SET contract_version = ?')
    .bind(version)
    .run()
    .catch(() => undefined);
}

/** How many rows the node change feed holds, optionally of one kind ('f' fixed allocations, 'u' customers) and ref. */
export const nodeFeedLength = (kind?: string, ref?: number) =>
  count('node_changes', [when('kind = ?', kind), when('ref = ?', ref)]);

// --- leases and usage ---

export interface LeaseSpec {
  userId: number;
  packageId: number;
  ipId: number;
  ip: string;
  port: number;
  assignedAt: number;
  expiresAt: number;
}

/** A dynamic lease of an exit to a user's package (an extraction's assignment row); by default user 1's package 1. */
export async function leaseExit(l: Partial<LeaseSpec> & Pick<LeaseSpec, 'assignedAt' | 'expiresAt'>): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO ip_assignments (user_id, package_id, ip_id, product_type, ip, port, protocol, region, carrier, day,
       assigned_at, expires_at) VALUES (?, ?, ?, 10, ?, ?, 'http', '广东省深圳市', '电信', '2026-01-01', ?, ?)`,
  )
    .bind(
      l.userId ?? 1,
      l.packageId ?? 1,
      l.ipId ?? 1,
      l.ip ?? '203.0.113.9',
      l.port ?? 8000,
      l.assignedAt,
      l.expiresAt,
    )
    .run();
}

/** How many node usage rows are stored (or for one user). */
export const nodeUsageCount = (userId?: number) => count('node_usage', [when('user_id = ?', userId)]);

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

// --- fixed allocations ---

/** How many fixed-IP allocations a user holds that are not released. */
export const liveFixedAllocations = (userId: number) =>
  count('fixed_allocations', [when('user_id = ?', userId), ['released_at = 0', []]]);

// --- breaking a table for a run ---

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

// --- extraction logs and rate counters ---

/** `n` extraction log rows of user 1 dated `at` (written 100 to a batch). */
export async function extractLogsAt(n: number, at: number): Promise<void> {
  const stmts = Array.from({ length: n }, () =>
    env.DB.prepare(
      "INSERT INTO extract_logs (user_id, client_ip, requested, returned, code, created_at) VALUES (1, '192.0.2.1', 1, 1, 0, ?)",
    ).bind(at),
  );
  for (let i = 0; i < stmts.length; i += 100) await env.DB.batch(stmts.slice(i, i + 100));
}

/** The per-user extraction rate counters (user 0: the benchmark D1 floor's writes), by user. */
export async function extractRateCounters(): Promise<{ userId: number; count: number }[]> {
  const { results } = await env.DB.prepare('SELECT user_id, count FROM extract_rate ORDER BY user_id').all<{
    user_id: number;
    count: number;
  }>();
  return results.map((r) => ({ userId: r.user_id, count: r.count }));
}

// --- retention of delivery and login records ---

/** How many rows the retention purge's tables hold. */
export const retainedRows = async () => ({
  extractLogs: await count('extract_logs'),
  ipAssignments: await count('ip_assignments'),
  loginAttempts: await loginAttemptsFrom(),
});

export interface RetentionRun {
  retentionDays: number;
  rowsRemoved: number;
  finishedAt: number | null;
}

/** The newest retention run as recorded. */
export async function latestRetentionRun(): Promise<RetentionRun | null> {
  return env.DB.prepare(
    'SELECT retention_days AS retentionDays, rows_removed AS rowsRemoved, finished_at AS finishedAt FROM retention_runs ORDER BY id DESC LIMIT 1',
  ).first<RetentionRun>();
}
