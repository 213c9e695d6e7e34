// Demo data for proxy delivery (development only, idempotent): the local development node (id 1, its exits arrive
// by heartbeat from the reference node, docs/decisions/046), and for the demo user 13800138000 an API key and proxy
// account, packages of each kind and white-list entries including 127.0.0.1. With `demoPool` (browser journeys and
// previews, which run no node) also three nodes with a pool from the documentation ranges 203.0.113.0/24,
// 198.51.100.0/24 and 192.0.2.0/24 across the hot cities.
import { hashExtractKey } from '../domain/credential-secrets';
import { storedPassword } from '../domain/credentials';
import { HOT_CITIES, regionKey } from '../domain/regions';
import { DEV_NODE_SECRET_KEY } from '../env';
import { DAY_MS, MINUTE_MS } from '../../lib/time';

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const CARRIER_CYCLE = ['电信', '联通', '移动'] as const;
/** Known only to development: the demo-pool nodes sign with these (scripts and tests may too). */
export const DEMO_NODES = [
  { id: 101, name: 'demo-node-a', secret: 'dev-node-secret-a-0123456789abcdef' },
  { id: 102, name: 'demo-node-b', secret: 'dev-node-secret-b-0123456789abcdef' },
  { id: 103, name: 'demo-node-c', secret: 'dev-node-secret-c-0123456789abcdef' },
] as const;
/** The local development node (docs/decisions/046): its secret comes from NODE_DEV_SECRET in .dev.vars. */
export const DEV_NODE = { id: 1, name: 'local-dev-node', secretVar: 'NODE_DEV_SECRET' } as const;
export const DEFAULT_DEV_NODE_SECRET = 'local-development-node-secret-0123456789abcdef';
/** The demo user's proxy account (development only; rotate it in 「API提取」). */
export const DEMO_PROXY_ACCOUNT = { username: 'demo13800138000', password: 'demoproxy0000pass' } as const;

export interface DeliverySeedOptions {
  /** Seed the documentation-range pool (runs without a node: browser journeys, previews). */
  demoPool: boolean;
  /** The development node's secret. */
  devNodeSecret: string;
  /** NODE_SECRET_KEY of the running Worker (.dev.vars): the demo key is stored as its hash, the password sealed. */
  atRestKey?: string;
}
/** The demo user's extraction key (development only). */
export const DEMO_API_KEY = 'demo13800138000key0000000000abcd';

export interface PoolSeedRow {
  nodeId: number;
  pool: 10 | 30 | 40;
  ip: string;
  port: number;
  protocols: number;
  province: string;
  city: string;
  carrier: string;
  expiresAt: number;
}

/** The development pool: 254 short-lived IPs per range in two ranges, long-lived and dedicated IPs in the third. */
export function demoPool(now: number): PoolSeedRow[] {
  const rows: PoolSeedRow[] = [];
  const ranges = [
    { prefix: '203.0.113', nodeId: 101, n: 1, basePort: 40000 },
    { prefix: '198.51.100', nodeId: 102, n: 2, basePort: 41000 },
    { prefix: '192.0.2', nodeId: 103, n: 3, basePort: 42000 },
  ];
  for (const r of ranges) {
    for (let i = 1; i <= 254; i++) {
      const city = HOT_CITIES[(i + r.n * 7) % HOT_CITIES.length] ?? HOT_CITIES[0];
      const pool: 10 | 30 | 40 = r.n < 3 ? 10 : i <= 180 ? 40 : 30;
      const lifetime = pool === 10 ? 2 * DAY_MS + ((i * 37) % 360) * MINUTE_MS : pool === 40 ? 7 * DAY_MS : 60 * DAY_MS;
      rows.push({
        nodeId: r.nodeId,
        pool,
        ip: `${r.prefix}.${i}`,
        port: r.basePort + i,
        protocols: i % 5 === 0 ? 3 : 7,
        province: city?.province ?? '北京市',
        city: city?.city ?? '北京市',
        carrier: CARRIER_CYCLE[(i + r.n) % 3] ?? '电信',
        expiresAt: now + lifetime,
      });
    }
  }
  return rows;
}

/** SQL for the demo delivery data. */
export async function demoDeliverySql(
  now: number,
  opts: DeliverySeedOptions = { demoPool: false, devNodeSecret: DEFAULT_DEV_NODE_SECRET },
): Promise<string> {
  const atRestKey = opts.atRestKey ?? DEV_NODE_SECRET_KEY;
  const account = await storedPassword(atRestKey, DEMO_PROXY_ACCOUNT.username, DEMO_PROXY_ACCOUNT.password);
  const out: string[] = [];
  // Databases seeded before issue 9 hold the documentation-range pool on nodes 1-3: release and drop it (the old
  // node 1 becomes the development node below).
  const docRange = `(ip LIKE '203.0.113.%' OR ip LIKE '198.51.100.%' OR ip LIKE '192.0.2.%') AND node_id IN (1, 2, 3)`;
  out.push(
    `UPDATE fixed_allocations SET released_at = ${now} WHERE released_at = 0 AND ip_id IN (SELECT id FROM proxy_ips WHERE ${docRange});`,
    `DELETE FROM proxy_ips WHERE ${docRange};`,
    `DELETE FROM proxy_nodes WHERE id IN (2, 3) AND name IN ('demo-node-b', 'demo-node-c');`,
    `INSERT INTO proxy_nodes (id, name, secret, status, created_at) VALUES (${DEV_NODE.id}, ${q(DEV_NODE.name)}, ${q(opts.devNodeSecret)}, 1, ${now}) ON CONFLICT(id) DO UPDATE SET name = excluded.name, secret = excluded.secret, status = 1;`,
  );
  for (const n of opts.demoPool ? DEMO_NODES : []) {
    out.push(
      `INSERT INTO proxy_nodes (id, name, secret, status, created_at) VALUES (${n.id}, ${q(n.name)}, ${q(n.secret)}, 1, ${now}) ON CONFLICT(id) DO NOTHING;`,
    );
  }
  for (const r of opts.demoPool ? demoPool(now) : []) {
    out.push(
      `INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key, carrier, expires_at, healthy, checked_at, created_at) VALUES (${r.nodeId}, ${r.pool}, ${q(r.ip)}, ${r.port}, ${r.protocols}, ${q(r.province)}, ${q(r.city)}, ${q(regionKey(r.province))}, ${q(regionKey(r.city))}, ${q(r.carrier)}, ${r.expiresAt}, 1, ${now}, ${now}) ON CONFLICT(ip, port) DO UPDATE SET expires_at = excluded.expires_at, healthy = 1, checked_at = excluded.checked_at;`,
    );
  }
  out.push(
    // Stored as the Worker stores them (docs/decisions/199, 200); a database seeded before holds the plain demo key:
    // that row is converted, a key reset since is kept.
    `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, proxy_username, proxy_password, proxy_password_verifier, created_at, updated_at) SELECT id, ${q(await hashExtractKey(atRestKey, DEMO_API_KEY))}, 'demoaeskey000001', 'demoaesiv0000001', ${q(DEMO_PROXY_ACCOUNT.username)}, ${q(account.sealedPassword)}, ${q(account.verifier)}, ${now}, ${now} FROM users WHERE phone = '13800138000' ON CONFLICT(user_id) DO UPDATE SET api_key = excluded.api_key, proxy_password = excluded.proxy_password, proxy_password_verifier = excluded.proxy_password_verifier WHERE proxy_api_credentials.api_key = ${q(DEMO_API_KEY)};`,
    `UPDATE users SET proxy_api_opened = 1 WHERE phone = '13800138000';`,
  );
  const packages = [
    {
      ref: 'demo-short-count',
      type: 10,
      billing: 1,
      name: '短效动态IP · 按量 10000个 · 5分钟',
      minutes: 5,
      total: 10000,
      remaining: 8650,
      daily: 0,
      ipCount: 0,
      starts: now - 20 * DAY_MS,
      expires: now + 160 * DAY_MS,
      state: 1,
    },
    {
      ref: 'demo-short-daily',
      type: 10,
      billing: 2,
      name: '短效动态IP · 包天 每日2000个 · 3分钟',
      minutes: 3,
      total: 0,
      remaining: 0,
      daily: 2000,
      ipCount: 0,
      starts: now - 5 * DAY_MS,
      expires: now + 25 * DAY_MS,
      state: 1,
    },
    {
      ref: 'demo-long-count',
      type: 40,
      billing: 1,
      name: '长效静态IP · 按量 500个 · 24小时',
      minutes: 1440,
      total: 500,
      remaining: 420,
      daily: 0,
      ipCount: 0,
      starts: now - 10 * DAY_MS,
      expires: now + 80 * DAY_MS,
      state: 1,
    },
    {
      ref: 'demo-fixed',
      type: 30,
      billing: 2,
      name: opts.demoPool ? '固定IP · 5个 · 30天' : '固定IP · 2个 · 30天',
      minutes: 43200,
      total: 0,
      remaining: 0,
      daily: 0,
      // The development node has 2 dedicated exits (docs/decisions/046).
      ipCount: opts.demoPool ? 5 : 2,
      starts: now - 3 * DAY_MS,
      expires: now + 27 * DAY_MS,
      state: 1,
    },
    {
      ref: 'demo-short-expired',
      type: 10,
      billing: 1,
      name: '短效动态IP · 按量 1000个 · 10分钟',
      minutes: 10,
      total: 1000,
      remaining: 120,
      daily: 0,
      ipCount: 0,
      starts: now - 90 * DAY_MS,
      expires: now - 30 * DAY_MS,
      state: 2,
    },
  ];
  for (const p of packages) {
    out.push(
      `INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count, remaining_count, daily_limit, ip_count, starts_at, expires_at, state, source, source_ref, created_at, updated_at) SELECT id, ${p.type}, ${p.billing}, ${q(p.name)}, ${p.minutes}, ${p.total}, ${p.remaining}, ${p.daily}, ${p.ipCount}, ${p.starts}, ${p.expires}, ${p.state}, 'demo', ${q(p.ref)}, ${p.starts}, ${now} FROM users WHERE phone = '13800138000' AND NOT EXISTS (SELECT 1 FROM proxy_packages WHERE source = 'demo' AND source_ref = ${q(p.ref)});`,
    );
  }
  out.push(
    `INSERT OR IGNORE INTO fixed_allocations (user_id, package_id, ip_id, ip, port, province, city, carrier, allocated_at, expires_at) SELECT p.user_id, p.id, i.id, i.ip, i.port, i.province, i.city, i.carrier, ${now}, p.expires_at FROM proxy_packages p, proxy_ips i WHERE p.source = 'demo' AND p.source_ref = 'demo-fixed' AND i.pool = 30 AND NOT EXISTS (SELECT 1 FROM fixed_allocations f WHERE f.package_id = p.id) ORDER BY i.id LIMIT 5;`,
  );
  const whiteList = [
    { ip: '127.0.0.1', remark: '本机（开发环境提取）', enabled: 1, expires: 0 },
    { ip: '::1', remark: '本机 IPv6', enabled: 1, expires: 0 },
    { ip: '198.51.100.10', remark: '办公室出口', enabled: 1, expires: now + 90 * DAY_MS },
    { ip: '203.0.113.250', remark: '旧服务器（已停用）', enabled: 0, expires: 0 },
  ];
  for (const w of whiteList) {
    out.push(
      `INSERT INTO white_list (user_id, ip, remark, enabled, expires_at, created_at, updated_at) SELECT id, ${q(w.ip)}, ${q(w.remark)}, ${w.enabled}, ${w.expires}, ${now}, ${now} FROM users WHERE phone = '13800138000' ON CONFLICT(user_id, ip) DO NOTHING;`,
    );
  }
  return out.join('\n');
}
