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
import { col, exists, insert, matches, notExists, rawSql, remove, type Row, update, type Where } from './sql';
import { PACKAGE_STATE } from '../../lib/package-states';

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
/** The demo user who holds the delivery demo data (accounts.ts). */
const DEMO_USER_PHONE = '13800138000';
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
  const demoUser = { from: 'users', where: { phone: DEMO_USER_PHONE } } as const;
  const userId = col('users', 'id');
  // Databases seeded before issue 9 hold the documentation-range pool on nodes 1-3: release and drop it (the old
  // node 1 becomes the development node below).
  const docRange: Where<'proxy_ips'> = [
    rawSql`(ip LIKE ${'203.0.113.%'} OR ip LIKE ${'198.51.100.%'} OR ip LIKE ${'192.0.2.%'})`,
    { node_id: [1, 2, 3] },
  ];
  out.push(
    update('fixed_allocations', { released_at: now }, [
      { released_at: 0 },
      exists('proxy_ips', [{ id: col('fixed_allocations', 'ip_id') }, ...docRange]),
    ]),
    remove('proxy_ips', docRange),
    remove('proxy_nodes', { id: [2, 3], name: ['demo-node-b', 'demo-node-c'] }),
    ...insert(
      'proxy_nodes',
      [{ id: DEV_NODE.id, name: DEV_NODE.name, secret: opts.devNodeSecret, status: 1, created_at: now }],
      { onConflict: { columns: ['id'], update: ['name', 'secret', 'status'] } },
    ),
    ...insert(
      'proxy_nodes',
      (opts.demoPool ? DEMO_NODES : []).map((n) => ({
        id: n.id,
        name: n.name,
        secret: n.secret,
        status: 1,
        created_at: now,
      })),
      { onConflict: { columns: ['id'], doNothing: true } },
    ),
    ...insert(
      'proxy_ips',
      (opts.demoPool ? demoPool(now) : []).map(
        (r): Row<'proxy_ips'> => ({
          node_id: r.nodeId,
          pool: r.pool,
          ip: r.ip,
          port: r.port,
          protocols: r.protocols,
          province: r.province,
          city: r.city,
          province_key: regionKey(r.province),
          city_key: regionKey(r.city),
          carrier: r.carrier,
          expires_at: r.expiresAt,
          healthy: true,
          checked_at: now,
          created_at: now,
        }),
      ),
      { onConflict: { columns: ['ip', 'port'], update: ['expires_at', 'healthy', 'checked_at'] } },
    ),
    // Stored as the Worker stores them (docs/decisions/199, 200); a database seeded before holds the plain demo key:
    // that row is converted, a key reset since is kept.
    ...insert(
      'proxy_api_credentials',
      [
        {
          user_id: userId,
          api_key: await hashExtractKey(atRestKey, DEMO_API_KEY),
          aes_key: 'demoaeskey000001',
          aes_iv: 'demoaesiv0000001',
          proxy_username: DEMO_PROXY_ACCOUNT.username,
          proxy_password: account.sealedPassword,
          proxy_password_verifier: account.verifier,
          created_at: now,
          updated_at: now,
        },
      ],
      {
        select: demoUser,
        onConflict: {
          columns: ['user_id'],
          update: ['api_key', 'proxy_password', 'proxy_password_verifier'],
          where: matches('proxy_api_credentials', { api_key: DEMO_API_KEY }),
        },
      },
    ),
    update('users', { proxy_api_opened: true }, { phone: DEMO_USER_PHONE }),
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
      state: PACKAGE_STATE.active,
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
      state: PACKAGE_STATE.active,
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
      state: PACKAGE_STATE.active,
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
      state: PACKAGE_STATE.active,
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
      state: PACKAGE_STATE.expired,
    },
  ];
  for (const p of packages) {
    out.push(
      ...insert(
        'proxy_packages',
        [
          {
            user_id: userId,
            product_type: p.type,
            billing_method: p.billing,
            name: p.name,
            ip_duration_minutes: p.minutes,
            total_count: p.total,
            remaining_count: p.remaining,
            daily_limit: p.daily,
            ip_count: p.ipCount,
            starts_at: p.starts,
            expires_at: p.expires,
            state: p.state,
            source: 'demo',
            source_ref: p.ref,
            created_at: p.starts,
            updated_at: now,
          },
        ],
        {
          select: {
            from: 'users',
            where: [{ phone: DEMO_USER_PHONE }, notExists('proxy_packages', { source: 'demo', source_ref: p.ref })],
          },
        },
      ),
    );
  }
  const fixedPackage = (c: 'user_id' | 'id' | 'expires_at') => col('proxy_packages', c);
  const dedicatedIp = (c: 'id' | 'ip' | 'port' | 'province' | 'city' | 'carrier') => col('proxy_ips', c);
  out.push(
    ...insert(
      'fixed_allocations',
      [
        {
          user_id: fixedPackage('user_id'),
          package_id: fixedPackage('id'),
          ip_id: dedicatedIp('id'),
          ip: dedicatedIp('ip'),
          port: dedicatedIp('port'),
          province: dedicatedIp('province'),
          city: dedicatedIp('city'),
          carrier: dedicatedIp('carrier'),
          allocated_at: now,
          expires_at: fixedPackage('expires_at'),
        },
      ],
      {
        onConflict: 'ignore',
        select: {
          from: rawSql`proxy_packages, proxy_ips`,
          where: [
            matches('proxy_packages', { source: 'demo', source_ref: 'demo-fixed' }),
            matches('proxy_ips', { pool: 30 }),
            notExists('fixed_allocations', { package_id: fixedPackage('id') }),
          ],
          orderBy: dedicatedIp('id'),
          limit: 5,
        },
      },
    ),
  );
  const whiteList = [
    { ip: '127.0.0.1', remark: '本机（开发环境提取）', enabled: true, expires: 0 },
    { ip: '::1', remark: '本机 IPv6', enabled: true, expires: 0 },
    { ip: '198.51.100.10', remark: '办公室出口', enabled: true, expires: now + 90 * DAY_MS },
    { ip: '203.0.113.250', remark: '旧服务器（已停用）', enabled: false, expires: 0 },
  ];
  out.push(
    ...insert(
      'white_list',
      whiteList.map(
        (w): Row<'white_list'> => ({
          user_id: userId,
          ip: w.ip,
          remark: w.remark,
          enabled: w.enabled,
          expires_at: w.expires,
          created_at: now,
          updated_at: now,
        }),
      ),
      { select: demoUser, onConflict: { columns: ['user_id', 'ip'], doNothing: true } },
    ),
  );
  return out.join('\n');
}
