// Fixtures for the delivery suites: a user with an extraction key, packages, white-list entries and pool IPs,
// inserted directly so each test states exactly the quota and pool it races for.
import { env, SELF } from 'cloudflare:test';
import { shanghaiDay } from '../../src/lib/time';
import type { CandidateFilter, OneBatchCall } from '../../src/server/db/extract';
import { hashExtractKey } from '../../src/server/domain/credential-secrets';
import { signNodeRequest } from '../../src/server/domain/node-auth';
import { regionKey } from '../../src/server/domain/regions';
import { DEV_NODE_SECRET_KEY } from '../../src/server/env';
import { BASE } from './api';

let seq = 0;

/** The stored form of an extraction key under the tests' NODE_SECRET_KEY (vitest.config.ts, the development value). */
export const storedKey = (key: string) => hashExtractKey(DEV_NODE_SECRET_KEY, key);

/** A user with an extraction key (stored as its hash, as the Worker stores it); returns the id and the key. */
export async function makeUser(opts: { rateLimit?: number } = {}): Promise<{ id: number; key: string; phone: string }> {
  seq++;
  const phone = `1390000${String(seq).padStart(4, '0')}`;
  const now = Date.now();
  const user = await env.DB.prepare(
    'INSERT INTO users (phone, is_identity_auth, created_at, updated_at) VALUES (?, 1, ?, ?) RETURNING id',
  )
    .bind(phone, now, now)
    .first<{ id: number }>();
  const id = user?.id ?? 0;
  const key = `testkey${String(id).padStart(6, '0')}${'x'.repeat(19)}`;
  await env.DB.prepare(
    'INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, rate_limit, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
    .bind(id, await storedKey(key), 'aeskey0000000001', 'aesiv00000000001', opts.rateLimit ?? 10, now, now)
    .run();
  return { id, key, phone };
}

export interface PackageSpec {
  type?: 10 | 30 | 40;
  billing?: 1 | 2;
  remaining?: number;
  dailyLimit?: number;
  usedToday?: number;
  usageDay?: string;
  minutes?: number;
  expiresAt?: number;
  state?: number;
  ipCount?: number;
}

/** A package for a user; returns its id. */
export async function makePackage(userId: number, p: PackageSpec = {}): Promise<number> {
  const now = Date.now();
  const row = await env.DB.prepare(
    `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
       remaining_count, daily_limit, used_today, usage_day, ip_count, starts_at, expires_at, state, source, created_at, updated_at)
     VALUES (?, ?, ?, 'test', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'demo', ?, ?) RETURNING id`,
  )
    .bind(
      userId,
      p.type ?? 10,
      p.billing ?? 1,
      p.minutes ?? 5,
      p.remaining ?? 100,
      p.remaining ?? 100,
      p.dailyLimit ?? 0,
      p.usedToday ?? 0,
      p.usageDay ?? '',
      p.ipCount ?? 0,
      now - 60_000,
      p.expiresAt ?? now + 86_400_000,
      p.state ?? 1,
      now,
      now,
    )
    .first<{ id: number }>();
  return row?.id ?? 0;
}

/** A white-list entry. */
export async function allowIp(userId: number, ip: string, opts: { enabled?: boolean; expiresAt?: number } = {}) {
  const now = Date.now();
  await env.DB.prepare(
    'INSERT INTO white_list (user_id, ip, enabled, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  )
    .bind(userId, ip, opts.enabled === false ? 0 : 1, opts.expiresAt ?? 0, now, now)
    .run();
}

export interface IpSpec {
  ip: string;
  pool?: 10 | 30 | 40;
  province?: string;
  city?: string;
  carrier?: '电信' | '联通' | '移动';
  protocols?: number;
  ttlSeconds?: number;
}

/** A node (id 1, secret known to the tests) and pool IPs. */
export async function addPool(ips: IpSpec[]): Promise<void> {
  const now = Date.now();
  await env.DB.prepare(
    "INSERT INTO proxy_nodes (id, name, secret, created_at) VALUES (1, 'n1', ?, ?) ON CONFLICT(id) DO NOTHING",
  )
    .bind(NODE_SECRET, now)
    .run();
  if (ips.length === 0) return;
  await env.DB.batch(
    ips.map((s, i) =>
      env.DB.prepare(
        `INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key, carrier,
           expires_at, healthy, checked_at, created_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      ).bind(
        s.pool ?? 10,
        s.ip,
        40000 + i,
        s.protocols ?? 7,
        s.province ?? '广东省',
        s.city ?? '深圳市',
        regionKey(s.province ?? '广东省'),
        regionKey(s.city ?? '深圳市'),
        s.carrier ?? '电信',
        now + (s.ttlSeconds ?? 3600) * 1000,
        now,
        now,
      ),
    ),
  );
}

/** n pool IPs 203.0.113.1.. in Shenzhen. */
export const simplePool = (n: number, from = 1) =>
  addPool(Array.from({ length: n }, (_, i) => ({ ip: `203.0.113.${from + i}` })));

export const NODE_SECRET = 'test-node-secret-0123456789abcdef';

/** GET /extract with a query and caller IP. */
export async function extractCall(query: Record<string, string | number>, ip = '192.0.2.50') {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await SELF.fetch(`${BASE}/extract?${qs}`, { headers: { 'cf-connecting-ip': ip } });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
}

/**
 * What a plain `/extract` call (type 10, http, no package, no min_ttl) passes to extractInOneBatch for `filter` at
 * `now` from `callerIp`, for the tests that call the batch directly.
 */
export const oneBatchCall = (filter: CandidateFilter, now: number, callerIp = '192.0.2.50'): OneBatchCall => ({
  second: Math.floor(now / 1000),
  callerIp,
  productType: 10,
  packageId: null,
  now,
  day: shanghaiDay(now),
  protocol: 'http',
  query: '',
  requested: filter.limit,
  minTtlSeconds: 0,
  filter,
});

/** A signed node call. */
export async function nodeCall(
  method: 'GET' | 'POST',
  path: string,
  body = '',
  opts: { secret?: string; nodeId?: number; headers?: Record<string, string>; timestamp?: number } = {},
) {
  const timestamp = String(opts.timestamp ?? Date.now());
  const signature = await signNodeRequest(opts.secret ?? NODE_SECRET, { method, path, timestamp, body });
  return SELF.fetch(`${BASE}${path}`, {
    method,
    headers: {
      'x-node-id': String(opts.nodeId ?? 1),
      'x-node-timestamp': timestamp,
      'x-node-signature': signature,
      'content-type': 'application/json',
      ...opts.headers,
    },
    ...(method === 'POST' ? { body } : {}),
  });
}

/** A single number from SQL. */
export const scalar = async (sql: string, ...binds: unknown[]): Promise<number> =>
  (
    (await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()) ?? { n: -1 }
  ).n;

/** Empty every table but the append-only audit log; foreign keys are checked at commit, so the order does not matter. */
export async function resetAll(): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'audit_log')",
  ).all<{ name: string }>();
  // FTS5 shadow tables (<name>_fts_data, ...) are the index itself: empty the virtual table, never those.
  const virtual = results.filter((r) => r.name.endsWith('_fts')).map((r) => r.name);
  const tables = results.filter((r) => !virtual.some((v) => r.name.startsWith(`${v}_`)));
  await env.DB.batch([
    env.DB.prepare('PRAGMA defer_foreign_keys = ON'),
    ...tables.map((r) => env.DB.prepare(`DELETE FROM "${r.name}"`)),
  ]);
}
