// bench:scale, archive: D1 stays flat while delivery history grows, how large the customer and node objects get, what
// the archive costs per lease, and how fast the operator's trace answers from it (issue 26 "Done when"). On a copy of
// the demo database:
//   1,000 customers (a package and an extraction key each) and one heavy customer (the demo user, its demo key) at the
//   documented cap, 10 calls a second of num=10 — 864,000 calls and 8.64 million leases a real day;
//   29 older days of history (the 29 days before today) written the old way, straight into D1's pre-object tables
//   (extract_logs, ip_assignments, node_usage), archived first, so the trace reads 30 days of archive;
//   then the simulated day, SAMPLED, through the real system of decisions 243-250: every call a real `GET /extract`
//   on the running wrangler dev (a charged call writes a receipt, the customer's CustomerRecords object keeps it and
//   forwards its leases to the node's NodeLeases object), then the node's usage for those leases through the real
//   `POST /node/v2/usage`, signed as node 1 (the node object keeps it on its lease), so every lease owns bytes;
//   then the real hourly job (`7 * * * *`) "nine days later" through wrangler dev's local scheduled endpoint
//   (`/cdn-cgi/local/scheduled?cron=…&time=<ms>`, as the delivery end-to-end suite), run until the objects hold nothing
//   past the hot window (its objects step moves their history to R2, decision 248);
//   D1's used bytes (pages minus free pages) before the day, with it hot, and after the job; the objects' SQLite files
//   (v3/do/<script>-<Class>/*.sqlite) and their rows before and after; the archive's bytes per lease (customer batches
//   from the manifest, the exit index from the local R2 store); Admin.ExitTrace over /api for leases picked across
//   the 30 days and among the day's object-archived leases, p50 / p90, found / looked up.
// The volume is SAMPLED (see `sampling` in the result): every heavy call stands for HEAVY_SAMPLE real ones and every
// customer call for CUSTOMER_SAMPLE; the report scales the figures back up and says how.
import { createHash, createHmac } from 'node:crypto';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createPortalClient } from '../../node/src/portal.ts';
import { DEV_NODE_SECRET_KEY } from '../lib/tools.mjs';
import { DAY, SH, sqliteFile } from './generate.mjs';
import { KEY } from './measure.mjs';

/** The documented cap: 10 calls a second, num=10. */
export const HEAVY_CALLS_PER_DAY = 864_000;
/** A customer's ordinary day (assumed): 100 calls of 10 IPs. */
export const CUSTOMER_CALLS_PER_DAY = 100;
const IPS_PER_CALL = 10;
const LEASE_MS = 300_000;
/** Exits of the archive phase: 1,000 addresses in 4 /24 blocks (the trace's index is per /24, day and customer). */
const EXITS = 1_000;
/** Customers active on each of the 29 older days (the simulated day has all of them). */
const OLDER_DAY_CUSTOMERS = 20;
export const ADMIN_TOKEN = 'benchscale-operator-token-0123456789abcdef';

/** Bytes SQLite uses for data (pages minus free pages): what D1 bills and caps, whatever the file size. */
function usedBytes(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  const one = (p) => Object.values(db.prepare(`PRAGMA ${p}`).get())[0];
  const bytes = (one('page_count') - one('freelist_count')) * one('page_size');
  db.close();
  return bytes;
}

const count = (file, sql) => {
  const db = new DatabaseSync(file, { readOnly: true });
  const row = db.prepare(sql).get();
  db.close();
  return Object.values(row)[0] ?? 0;
};

/** Bytes of the local R2 objects whose keys start with `prefix` (miniflare keeps their metadata in SQLite). */
function r2Bytes(root, prefix) {
  const base = `${root}/v3/r2/miniflare-R2BucketObject`;
  if (!existsSync(base)) return { objects: 0, bytes: 0 };
  let objects = 0;
  let bytes = 0;
  for (const f of readdirSync(base).filter((x) => x.endsWith('.sqlite') && x !== 'metadata.sqlite')) {
    const db = new DatabaseSync(join(base, f), { readOnly: true });
    const row = db
      .prepare('SELECT count(*) AS n, coalesce(sum(size), 0) AS b FROM _mf_objects WHERE key LIKE ?')
      .get(`${prefix}%`);
    db.close();
    objects += row.n;
    bytes += row.b;
  }
  return { objects, bytes };
}

/** The exit index objects of one day (北京时间 date), per /24 block: what a trace lookup of that day lists and reads. */
function exitObjectsPerBlock(root, day) {
  const base = `${root}/v3/r2/miniflare-R2BucketObject`;
  if (!existsSync(base)) return 0;
  const blocks = new Map();
  for (const f of readdirSync(base).filter((x) => x.endsWith('.sqlite') && x !== 'metadata.sqlite')) {
    const db = new DatabaseSync(join(base, f), { readOnly: true });
    for (const { key } of db.prepare('SELECT key FROM _mf_objects WHERE key LIKE ?').all(`archive/v1/exit/${day}/%`)) {
      const block = key.split('/')[4];
      blocks.set(block, (blocks.get(block) ?? 0) + 1);
    }
    db.close();
  }
  return blocks.size ? Math.round([...blocks.values()].reduce((a, b) => a + b, 0) / blocks.size) : 0;
}

const dirBytes = (d) =>
  existsSync(d)
    ? readdirSync(d, { recursive: true })
        .map((f) => join(d, String(f)))
        .filter((f) => statSync(f).isFile())
        .reduce((a, f) => a + statSync(f).size, 0)
    : 0;

/** The extraction key's stored form (credential-secrets.ts hashExtractKey): "h1:" + HMAC under a key derived from NODE_SECRET_KEY. */
function hashExtractKey(keyHex, apiKey) {
  const derived = createHmac('sha256', Buffer.from(keyHex, 'hex')).update('extract-key-hash-v1').digest();
  return `h1:${createHmac('sha256', derived).update(apiKey).digest('hex')}`;
}

/** A bench customer's extraction key (letters and digits, 32 characters, as the portal's keys). */
const keyOf = (u) => `benchscale${String(u).padStart(22, '0')}`;

/**
 * Customers (a package, an extraction key, 127.0.0.1 on the white list each), the exits (node 1, the development
 * node, whose signing secret is returned), an operator session (role support) on the copied demo data. The heavy
 * customer is the demo user with its demo key, at the documented rate limit (10 calls a second); the demo pool leaves
 * the draw, so every lease is on the bench exits of node 1.
 */
function setUp(file, { customers, now }) {
  const db = new DatabaseSync(file);
  const heavy = db.prepare("SELECT id FROM users WHERE phone = '13800138000'").get().id;
  const heavyPackage = db.prepare('SELECT id FROM proxy_packages WHERE user_id = ? ORDER BY id LIMIT 1').get(heavy).id;
  const firstUser = db.prepare('SELECT coalesce(max(id), 0) + 1 AS n FROM users').get().n;
  const nodeSecret = db.prepare('SELECT secret FROM proxy_nodes WHERE id = 1').get().secret;
  const seq = (n) => `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})`;
  db.exec(`BEGIN;
    ${seq(customers)} INSERT INTO users (phone, status, is_identity_auth, proxy_api_opened, created_at, updated_at)
      SELECT '166' || printf('%08d', i), 1, 1, 1, ${now - 400 * DAY}, ${now} FROM s;
    INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
      remaining_count, starts_at, expires_at, state, source, created_at, updated_at)
      SELECT id, 10, 1, 'bench', 5, 1000000, 1000000, ${now - 60 * DAY}, ${now + 60 * DAY}, 1, 'operator', ${now}, ${now}
      FROM users WHERE id >= ${firstUser};
    INSERT INTO white_list (user_id, ip, remark, enabled, expires_at, created_at, updated_at)
      SELECT id, '127.0.0.1', 'bench', 1, 0, ${now}, ${now} FROM users WHERE id >= ${firstUser};
    UPDATE proxy_ips SET healthy = 0;
    ${seq(EXITS)} INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key,
      carrier, expires_at, healthy, checked_at, created_at)
      SELECT 1, 10, '10.77.' || ((i - 1) / 250) || '.' || (((i - 1) % 250) + 1), 21000, 7, '广东省', '广州市', '广东', '广州',
        '电信', ${now + 2 * DAY}, 1, ${now}, ${now} FROM s;
    INSERT INTO operators (username, display_name, role, password_hash, created_at, updated_at)
      VALUES ('bench_support', '压测客服', 'support', 'x', ${now}, ${now});
    INSERT INTO operator_sessions (token_hash, operator_id, stage, created_at, last_seen_at, expires_at, ip)
      SELECT '${createHash('sha256').update(ADMIN_TOKEN).digest('hex')}', id, 'active', ${now}, ${now}, ${now + DAY},
        '127.0.0.1' FROM operators WHERE username = 'bench_support';
    COMMIT;`);
  const packages = db
    .prepare('SELECT user_id AS u, id AS p FROM proxy_packages WHERE user_id >= ? ORDER BY user_id')
    .all(firstUser);
  const key = db.prepare(
    `INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, rate_limit, created_at, updated_at)
     VALUES (?, ?, 'benchaeskey00001', 'benchaesiv000001', 10, ?, ?)`,
  );
  db.exec('BEGIN');
  for (const c of packages) key.run(c.u, hashExtractKey(DEV_NODE_SECRET_KEY, keyOf(c.u)), now, now);
  // The heavy customer: the demo key (stored under the key wrangler dev runs with), at the documented cap.
  db.prepare('UPDATE proxy_api_credentials SET api_key = ?, rate_limit = 10 WHERE user_id = ?').run(
    hashExtractKey(DEV_NODE_SECRET_KEY, KEY),
    heavy,
  );
  db.exec('COMMIT');
  const exits = db.prepare("SELECT id, ip, port FROM proxy_ips WHERE ip LIKE '10.77.%' ORDER BY id").all();
  db.close();
  return {
    heavy: { u: heavy, p: heavyPackage, key: KEY },
    packages: packages.map((c) => ({ ...c, key: keyOf(c.u) })),
    exits,
    nodeSecret,
  };
}

/**
 * One day of history starting at `dayStart`: `calls` per holder (each 10 leases and 10 usage rows), spread over the
 * day. The node feed's insert trigger is left out (its rows are pruned after 24 h whatever the volume); the hourly
 * extraction counters (a roll-up D1 keeps) are written as usual.
 */
function writeDay(file, { dayStart, holders, exits, now }) {
  const db = new DatabaseSync(file);
  const feed = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ip_assignments'")
    .all();
  db.exec('BEGIN');
  for (const t of feed) db.exec(`DROP TRIGGER ${t.name}`);
  const log = db.prepare(
    `INSERT INTO extract_logs (user_id, package_id, product_type, client_ip, requested, returned, code, query, created_at)
     VALUES (?, ?, 10, '198.51.100.7', 10, 10, 0, 'num=10&format=json', ?)`,
  );
  const lease = db.prepare(
    `INSERT INTO ip_assignments (user_id, package_id, log_id, ip_id, product_type, ip, port, protocol, region, carrier,
       day, assigned_at, expires_at) VALUES (?, ?, ?, ?, 10, ?, ?, 'http', '广东省广州市', '电信', ?, ?, ?)`,
  );
  const usage = db.prepare(
    `INSERT INTO node_usage (node_id, batch_id, user_id, ip, port, client_ip, period_start, period_end, bytes_in,
       bytes_out, connections, received_at) VALUES (1, ?, ?, ?, ?, '198.51.100.7', ?, ?, ?, ?, ?, ?)`,
  );
  const day = new Date(dayStart + SH).toISOString().slice(0, 10);
  let leases = 0;
  let calls = 0;
  for (const h of holders) {
    for (let c = 0; c < h.calls; c++) {
      const t = dayStart + Math.floor(((c + Math.random()) / h.calls) * (DAY - LEASE_MS));
      const logId = Number(log.run(h.u, h.p, t).lastInsertRowid);
      calls++;
      for (let k = 0; k < IPS_PER_CALL; k++) {
        const e = exits[Math.floor(Math.random() * exits.length)];
        lease.run(h.u, h.p, logId, e.id, e.ip, e.port, day, t, t + LEASE_MS);
        usage.run(`b${logId}-${k}`, h.u, e.ip, e.port, t + 1_000, t + 11_000, 40_000, 900_000, 3, now);
        leases++;
      }
    }
  }
  for (const t of feed) db.exec(t.sql);
  db.exec('COMMIT');
  db.close();
  return { day, calls, leases };
}

/** Later than the clock by this much, the archive job sees the simulated day past the hot window (as the delivery e2e suite). */
const LATER_MS = 9 * DAY;
const HOURLY = '7 * * * *';
const HOUR = 3_600_000;

/** D1's rows of the tables the day can touch: the old history tables, the passing receipts, the bounded roll-ups. */
const D1_TABLES = [
  'extract_receipts',
  'extract_logs',
  'ip_assignments',
  'node_usage',
  'extract_hour_counts',
  'node_usage_hours',
  'usage_hourly',
  'node_batches',
  'archive_objects',
];
function d1Rows(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  const rows = Object.fromEntries(D1_TABLES.map((t) => [t, db.prepare(`SELECT count(*) AS n FROM ${t}`).get().n]));
  db.close();
  return rows;
}

/**
 * Fires the hourly job once through wrangler dev's local scheduled endpoint, "nine days later" and `run` hours on:
 * the objects' step visits the customers in pages of 1,000, the page chosen by the hour of the job's clock
 * (objects.ts: floor(now / hour) % pages), so consecutive runs must be an hour apart, as the real hourly trigger is.
 */
async function hourlyJobLater(server, run) {
  const time = Date.now() + LATER_MS + run * HOUR;
  const r = await fetch(`${server.base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(HOURLY)}&time=${time}`);
  if (!r.ok) throw new Error(`archive job: ${r.status} ${(await r.text()).slice(0, 300)}`);
}

/** Rows older than the hot window (as the job nine days later sees it) left in D1's old tables. */
const d1Left = (file, cutoff) =>
  count(
    file,
    `SELECT (SELECT count(*) FROM ip_assignments WHERE expires_at < ${cutoff})
    + (SELECT count(*) FROM extract_logs WHERE created_at < ${cutoff})
    + (SELECT count(*) FROM node_usage WHERE period_start < ${cutoff - DAY})`,
  );

/**
 * Runs the hourly archive job (nine days later) until `left()` is 0 (or `maxRuns`); `left` counts what is older than
 * the hot window in the stores that must be drained.
 */
async function archiveAll(server, left, { maxRuns = 60 } = {}) {
  const t0 = performance.now();
  let runs = 0;
  let rest = left();
  while (rest > 0 && runs < maxRuns) {
    await hourlyJobLater(server, runs);
    runs++;
    rest = left();
    console.log(`    job run ${runs}: ${rest} rows left`);
  }
  return { runs, left: rest, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}

// ---- the Durable Objects' SQLite files (wrangler's local state: v3/do/<script>-<Class>/<id>.sqlite) ----------------

/**
 * Runs `read` again while SQLite answers "database is locked" (workerd writes or checkpoints an object's file while this
 * process reads it), up to ~5 s.
 */
function whileLocked(read) {
  for (let i = 0; ; i++) {
    try {
      return read();
    } catch (err) {
      if (i >= 50 || !/locked|busy/i.test(String(err?.message))) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** Every object of `cls` under the state `root`: its name, file bytes (database + WAL), used bytes and row counts. */
function objectFiles(root, cls, tables) {
  const base = `${root}/v3/do`;
  if (!existsSync(base)) return [];
  const dirs = readdirSync(base).filter((d) => d.endsWith(`-${cls}`));
  const out = [];
  for (const d of dirs) {
    for (const f of readdirSync(join(base, d)).filter((x) => x.endsWith('.sqlite') && x !== 'metadata.sqlite')) {
      const path = join(base, d, f);
      out.push(whileLocked(() => objectFile(path, tables)));
    }
  }
  return out;
}

/** One object's SQLite file: its name, sizes and row counts. */
function objectFile(path, tables) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const one = (sql) => Object.values(db.prepare(sql).get() ?? {})[0] ?? 0;
    const names = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((r) => r.name),
    );
    const name = names.has('__miniflare_do_name')
      ? one('SELECT name FROM __miniflare_do_name LIMIT 1')
      : path.split('/').at(-1);
    const rows = Object.fromEntries(tables.map((t) => [t, names.has(t) ? one(`SELECT count(*) FROM ${t}`) : 0]));
    const pages = one('PRAGMA page_count');
    const pageSize = one('PRAGMA page_size');
    const used = (pages - one('PRAGMA freelist_count')) * pageSize;
    const wal = existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0;
    // databaseBytes: pages × page size (what the object's sql.databaseSize reports); usedBytes: without free pages;
    // fileBytes: the local files on disk (database + write-ahead log, which workerd does not truncate).
    return { name, databaseBytes: pages * pageSize, usedBytes: used, fileBytes: statSync(path).size + wal, rows };
  } finally {
    db.close();
  }
}

const CUSTOMER_TABLES = ['logs', 'leases', 'forwards'];
const NODE_TABLES = ['leases', 'lease_usage', 'usage_batches', 'refusals'];

/** The customer and node objects: each one's size and rows, the largest customer object, totals. */
function objectsNow(root) {
  const customers = objectFiles(root, 'CustomerRecords', CUSTOMER_TABLES);
  const nodes = objectFiles(root, 'NodeLeases', NODE_TABLES);
  const largest = (xs) => xs.reduce((a, b) => (b.databaseBytes > (a?.databaseBytes ?? -1) ? b : a), null);
  const sum = (xs, f) => xs.reduce((a, x) => a + f(x), 0);
  return {
    customerObjects: customers.length,
    customerDatabaseBytes: sum(customers, (x) => x.databaseBytes),
    customerFileBytes: sum(customers, (x) => x.fileBytes),
    customerUsedBytes: sum(customers, (x) => x.usedBytes),
    customerRows: sum(customers, (x) => x.rows.logs + x.rows.leases),
    largestCustomer: largest(customers),
    nodeObjects: nodes.length,
    nodeDatabaseBytes: sum(nodes, (x) => x.databaseBytes),
    nodeFileBytes: sum(nodes, (x) => x.fileBytes),
    nodeUsedBytes: sum(nodes, (x) => x.usedBytes),
    largestNode: largest(nodes),
  };
}

/** What the objects still hold that the job nine days later must move: every call and lease (all are of the day). */
const objectsLeft = (root) =>
  objectFiles(root, 'CustomerRecords', CUSTOMER_TABLES).reduce((a, x) => a + x.rows.logs + x.rows.leases, 0) +
  objectFiles(root, 'NodeLeases', NODE_TABLES).reduce((a, x) => a + x.rows.leases, 0);

/** The node object's leases (for the usage reports and the trace's probes of the day). */
function nodeObjectLeases(root, node) {
  const base = `${root}/v3/do`;
  for (const d of readdirSync(base).filter((x) => x.endsWith('-NodeLeases'))) {
    for (const f of readdirSync(join(base, d)).filter((x) => x.endsWith('.sqlite') && x !== 'metadata.sqlite')) {
      const rows = whileLocked(() => leasesIfNode(join(base, d, f), node));
      if (rows) return rows;
    }
  }
  return [];
}

/** The leases of the node object in `path` when it is node `node`'s, else null. */
function leasesIfNode(path, node) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    if (db.prepare('SELECT name FROM __miniflare_do_name').get()?.name !== `node:${node}`) return null;
    return db
      .prepare(
        `SELECT l.seq, l.id, l.user_id AS u, l.ip, l.port, l.starts_at AS s, l.expires_at AS e,
           EXISTS (SELECT 1 FROM lease_usage x WHERE x.lease_id = l.id) AS owns
         FROM leases l ORDER BY l.seq`,
      )
      .all();
  } finally {
    db.close();
  }
}

// ---- the simulated day through the real routes --------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One GET /extract (num=10); the JSON answer's code and the IPs. */
async function extractOnce(server, key) {
  const res = await fetch(`${server.base}/extract?key=${key}&num=${IPS_PER_CALL}&format=json`);
  const body = await res.json().catch(() => ({ code: -res.status }));
  return { code: body.code, ips: body.data?.list?.length ?? 0 };
}

/**
 * The sampled day through the real `/extract` of the running wrangler dev: the heavy customer at its key's rate limit
 * (10 calls in each wall-clock second, sent in the first three quarters of it; a call refused 1005 by the limit is
 * sent again in a later second), the customers' calls alongside, `concurrency` in flight, each customer's second call
 * after every first call.
 */
async function extractDay(server, { heavy, heavyCalls, customers, customerCalls, concurrency }) {
  const stats = { calls: 0, ips: 0, refusedRate: 0, failed: 0, why: {} };
  const note = (r) => {
    if (r.code === 0) {
      stats.calls++;
      stats.ips += r.ips;
    } else if (r.code === 1005) stats.refusedRate++;
    else {
      stats.failed++;
      stats.why[r.code] = (stats.why[r.code] ?? 0) + 1;
    }
  };
  const t0 = performance.now();
  const heavyRun = (async () => {
    let left = heavyCalls;
    while (left > 0) {
      const second = Math.floor(Date.now() / 1000) + 1;
      await sleep(second * 1000 + 20 - Date.now());
      const n = Math.min(10, left);
      const sent = Array.from({ length: n }, async (_, j) => {
        await sleep(second * 1000 + 20 + j * 70 - Date.now());
        return extractOnce(server, heavy.key);
      });
      const results = await Promise.all(sent);
      for (const r of results) note(r);
      left -= results.filter((r) => r.code !== 1005).length;
    }
  })();
  const customerRun = (async () => {
    for (let round = 0; round < customerCalls; round++) {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < customers.length) {
            const c = customers[next++];
            note(await extractOnce(server, c.key));
          }
        }),
      );
    }
  })();
  await Promise.all([heavyRun, customerRun]);
  return { ...stats, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}

/** Waits until D1 holds no receipt and the node object holds `leases` leases (the objects kept and forwarded the day). */
async function handedOver(server, file, root, leases, { timeoutMs = 120_000 } = {}) {
  const t0 = Date.now();
  let repaired = false;
  for (;;) {
    const receipts = count(file, 'SELECT count(*) FROM extract_receipts');
    const inNode = nodeObjectLeases(root, 1).length;
    if (receipts === 0 && inNode >= leases) return { receipts, inNode, seconds: (Date.now() - t0) / 1000, repaired };
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`hand-over: ${receipts} receipts left, ${inNode}/${leases} leases`);
    // Receipts a lost batch left behind are handed over by the delivery job (every 5 minutes): fire it once.
    if (!repaired && Date.now() - t0 > 45_000) {
      await fetch(`${server.base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
      repaired = true;
    }
    await sleep(1_000);
  }
}

/** Traffic per lease in the usage reports (one client address, a 10-second period). */
const USAGE = { clientIp: '198.51.100.7', bytesIn: 40_000, bytesOut: 900_000, connections: 3 };
const PERIOD_MS = 10_000;
/**
 * Rows per usage batch: the wire allows 5,000 (MAX_BATCH_ROWS), but the portal reads at most 512 KiB of a node's body
 * (MAX_NODE_BODY_BYTES) and answers a longer one 413; a row here is ≈ 115 bytes of JSON, so 5,000 rows (≈ 575 KB)
 * would be refused. 2,000 rows ≈ 230 KB.
 */
const BATCH_ROWS = 2_000;

/**
 * The node's usage reports for the day's leases through `POST /node/v2/usage`, signed as node 1 (the node's own
 * client, node/src/portal.ts), so every lease owns bytes. A row belongs to the lease of that customer and exit that
 * started last at or before the period's end (decision 222), so each lease needs a period ending between its start
 * and the same customer's next lease of that exit: the periods are the fewest such ends (greedy interval stabbing),
 * one batch per period (at most BATCH_ROWS rows), rows of every customer together.
 */
async function reportUsage(server, leases, nodeSecret, { concurrency = 3 } = {}) {
  const groups = new Map();
  for (const l of leases) {
    const k = `${l.u}|${l.ip}|${l.port}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(l);
  }
  // A period ends before the report is sent (and at most 1 s before it): wait until the last lease is that old.
  const lastStart = Math.max(...leases.map((l) => l.s));
  if (Date.now() < lastStart + 1_500) await sleep(lastStart + 1_500 - Date.now());
  const now = Date.now();
  const intervals = [];
  for (const g of groups.values()) {
    g.sort((a, b) => a.s - b.s || a.seq - b.seq);
    g.forEach((l, i) => {
      const next = g[i + 1];
      const right = next ? next.s - 1 : Math.min(l.e, now - 1_000);
      // Two leases of one exit started in the same millisecond: only the later one can own a period (ties by seq).
      if (right >= l.s) intervals.push({ l, left: l.s, right });
    });
  }
  intervals.sort((a, b) => a.right - b.right);
  const periods = [];
  let point = Number.NEGATIVE_INFINITY;
  for (const it of intervals) {
    if (it.left > point) {
      point = it.right;
      periods.push({ end: point, rows: [] });
    }
    periods.at(-1).rows.push({ userId: it.l.u, ip: it.l.ip, port: it.l.port, ...USAGE });
  }
  const batches = periods.flatMap((p, i) => {
    const out = [];
    for (let k = 0; k < p.rows.length; k += BATCH_ROWS) {
      out.push({
        batchId: `bench-${now}-${i}-${k / BATCH_ROWS}`,
        periodStart: p.end - PERIOD_MS,
        periodEnd: p.end,
        rows: p.rows.slice(k, k + BATCH_ROWS),
      });
    }
    return out;
  });
  const portal = createPortalClient({ portalUrl: server.base, nodeId: 1, secret: nodeSecret, timeoutMs: 60_000 });
  const t0 = performance.now();
  let next = 0;
  let stored = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < batches.length) {
        const b = batches[next++];
        const answer = await portal.call('POST', '/node/v2/usage', b);
        stored += answer.stored ?? 0;
      }
    }),
  );
  return {
    leases: leases.length,
    rows: intervals.length,
    batches: batches.length,
    stored,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  };
}

/** 北京时间 "YYYY-MM-DD HH:mm:ss" of an instant (the trace's input). */
const beijing = (ms) => new Date(ms + SH).toISOString().slice(0, 19).replace('T', ' ');

/**
 * Admin.ExitTrace for each probe; latencies in ms and how many found their lease in the archive (a probe with
 * `leaseId` must find that very lease, one without it a lease of its customer).
 */
async function traceProbes(server, probes) {
  const latencies = [];
  let found = 0;
  for (const p of probes) {
    const t0 = performance.now();
    const res = await fetch(`${server.base}/api`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'source-type': '1', cookie: `admin_token=${ADMIN_TOKEN}` },
      body: JSON.stringify({ A: 'Admin.ExitTrace', P: { ip: p.ip, at: beijing(p.at + 60_000) } }),
    });
    const body = await res.json();
    latencies.push(performance.now() - t0);
    if (body.E !== undefined) throw new Error(`Admin.ExitTrace: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    const mine = (h) => (p.leaseId === undefined ? h.userId === p.u : h.leaseId === p.leaseId && h.userId === p.u);
    if (body.P.holders.some((h) => mine(h) && h.from === 'archive')) found++;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const pct = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
  return { probes: probes.length, found, p50: pct(0.5), p90: pct(0.9), max: pct(1), latencies };
}

/** A node object's lease id `r<receipt>.<k>` as the number the trace and the archive give it (decision 247). */
const leaseNumber = (id) => {
  const [r, k] = id.slice(1).split('.').map(Number);
  return -(r * 1000 + k);
};

/**
 * The archive phase on a copy of `demoState` under `<dir>/archive`; `server` is a benchServer started with
 * --test-scheduled. Returns the figures for the report.
 */
export async function archivePhase({
  dir,
  demoState,
  server,
  now,
  customers,
  heavySample,
  customerSample,
  days,
  traces,
  dayTraces,
  concurrency,
}) {
  const root = `${dir}/archive`;
  rmSync(root, { recursive: true, force: true });
  cpSync(demoState, root, { recursive: true });
  const file = sqliteFile(root);
  const { heavy, packages, exits, nodeSecret } = setUp(file, { customers, now });
  const midnight = now - ((now + SH) % DAY);
  const heavyCalls = Math.round(HEAVY_CALLS_PER_DAY / heavySample);
  const customerCalls = Math.max(1, Math.round(CUSTOMER_CALLS_PER_DAY / customerSample));
  const dayOf = (back) => midnight - back * DAY;
  // The job runs nine days later: its hot window starts at 北京时间 midnight 7 days before that.
  const laterMidnight = midnight + LATER_MS;
  const cutoff = laterMidnight - 7 * DAY;
  const probesFrom = (back, n) => {
    const db = new DatabaseSync(file, { readOnly: true });
    const rows = db
      .prepare(
        'SELECT user_id AS u, ip, assigned_at AS at FROM ip_assignments WHERE assigned_at >= ? AND assigned_at < ? ORDER BY random() LIMIT ?',
      )
      .all(dayOf(back), dayOf(back) + DAY, n);
    db.close();
    return rows;
  };
  console.log(
    `  archive phase: ${customers} customers + the heavy one, ${days} days, sampled 1/${heavySample} and 1/${customerSample}`,
  );
  // The 29 older days (1..29 days before today), written the old way (rows straight into D1's pre-object tables):
  // the heavy customer and a few others each day. The trace's probes are picked from each day's leases while they are
  // still in D1.
  const perDay = Math.max(1, Math.round(traces / days));
  const olderPicks = [];
  const older = [];
  for (let back = 1; back < days; back++) {
    const some = packages.slice((back * OLDER_DAY_CUSTOMERS) % packages.length).slice(0, OLDER_DAY_CUSTOMERS);
    older.push(
      writeDay(file, {
        dayStart: dayOf(back),
        holders: [{ ...heavy, calls: heavyCalls }, ...some.map((c) => ({ ...c, calls: customerCalls }))],
        exits,
        now,
      }),
    );
    olderPicks.push(...probesFrom(back, perDay));
  }
  await server.start(root);
  try {
    const olderRun = await archiveAll(server, () => d1Left(file, cutoff));
    console.log(
      `  ${older.length} older days archived: ${olderRun.runs} job runs, ${olderRun.seconds} s, ${olderRun.left} rows left`,
    );
    const before = usedBytes(file);
    const rowsBefore = d1Rows(file);
    const objectsBefore = objectsNow(root);
    const manifestBefore = count(file, 'SELECT count(*) FROM archive_objects');
    const leaseBytesBefore = count(file, "SELECT coalesce(sum(bytes), 0) FROM archive_objects WHERE kind = 'lease'");
    const exitBefore = r2Bytes(root, 'archive/v1/exit/');
    const allBefore = r2Bytes(root, 'archive/v1/');
    // The simulated day, today, through the real routes: the calls, the objects' keeping and forwarding, the usage.
    const dayKey = new Date(Date.now() + SH).toISOString().slice(0, 10);
    const extraction = await extractDay(server, {
      heavy,
      heavyCalls,
      customers: packages,
      customerCalls,
      concurrency,
    });
    console.log(
      `  the day extracted: ${extraction.calls} calls, ${extraction.ips} IPs in ${extraction.seconds} s (${extraction.refusedRate} refused by the rate limit and sent again, ${extraction.failed} failed)`,
    );
    const handover = await handedOver(server, file, root, extraction.ips);
    console.log(`  kept by the customer objects and forwarded to the node object in ${handover.seconds} s`);
    const dayLeases = nodeObjectLeases(root, 1);
    const usage = await reportUsage(server, dayLeases, nodeSecret);
    const leasesNow = nodeObjectLeases(root, 1);
    usage.leasesOwningBytes = leasesNow.filter((l) => l.owns).length;
    console.log(
      `  usage reported: ${usage.rows} rows in ${usage.batches} batches (${usage.seconds} s); ${usage.leasesOwningBytes}/${leasesNow.length} leases own bytes`,
    );
    const dayPicks = [...leasesNow]
      .sort(() => Math.random() - 0.5)
      .slice(0, dayTraces)
      .map((l) => ({ u: l.u, ip: l.ip, at: l.s, leaseId: leaseNumber(l.id) }));
    const peak = usedBytes(file);
    const rowsHot = d1Rows(file);
    const objectsHot = objectsNow(root);
    const dayRun = await archiveAll(server, () => objectsLeft(root) + d1Left(file, cutoff));
    console.log(`  simulated day archived: ${dayRun.runs} job runs, ${dayRun.seconds} s, ${dayRun.left} rows left`);
    const after = usedBytes(file);
    const rowsAfter = d1Rows(file);
    const objectsAfter = objectsNow(root);
    const manifestAfter = count(file, 'SELECT count(*) FROM archive_objects');
    // The objects' rows have negative archive ids, so parts of their own (decision 248): the day's batches by kind.
    const manifestDb = new DatabaseSync(file, { readOnly: true });
    const manifestByKind = manifestDb
      .prepare(`SELECT kind, count(*) AS objects, sum(rows) AS rows, sum(bytes) AS bytes FROM archive_objects
                WHERE part < 0 GROUP BY kind ORDER BY kind`)
      .all()
      .map((r) => ({ ...r }));
    manifestDb.close();
    const leaseBytes =
      count(file, "SELECT coalesce(sum(bytes), 0) FROM archive_objects WHERE kind = 'lease'") - leaseBytesBefore;
    const exitIndex = r2Bytes(root, 'archive/v1/exit/');
    const all = r2Bytes(root, 'archive/v1/');
    const olderTrace = await traceProbes(server, olderPicks);
    const dayTrace = await traceProbes(server, dayPicks);
    const latencies = [...olderTrace.latencies, ...dayTrace.latencies].sort((a, b) => a - b);
    const pct = (q) =>
      Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
    const trace = {
      days,
      probes: latencies.length,
      found: olderTrace.found + dayTrace.found,
      p50: pct(0.5),
      p90: pct(0.9),
      max: pct(1),
      older: { probes: olderTrace.probes, found: olderTrace.found, p50: olderTrace.p50, p90: olderTrace.p90 },
      day: { probes: dayTrace.probes, found: dayTrace.found, p50: dayTrace.p50, p90: dayTrace.p90 },
    };
    console.log(
      `  trace over ${days} days of archive: p50 ${trace.p50} ms, p90 ${trace.p90} ms; the day's object-archived leases ${dayTrace.found}/${dayTrace.probes} found, older days ${olderTrace.found}/${olderTrace.probes}`,
    );
    const exitBytes = exitIndex.bytes - exitBefore.bytes;
    const leases = extraction.ips;
    return {
      sampling: {
        heavyCallsPerDay: HEAVY_CALLS_PER_DAY,
        heavySample,
        heavyCallsSimulated: heavyCalls,
        customers,
        customerCallsPerDay: CUSTOMER_CALLS_PER_DAY,
        customerSample,
        customerCallsSimulated: customerCalls,
        olderDays: older.length,
        olderDayCustomers: OLDER_DAY_CUSTOMERS,
        exits: EXITS,
        concurrency,
      },
      day: {
        calls: extraction.calls,
        leases,
        realCalls: HEAVY_CALLS_PER_DAY + customers * CUSTOMER_CALLS_PER_DAY,
        extraction,
        handover,
        usage,
      },
      d1: {
        before,
        peak,
        after,
        manifestRowsAdded: manifestAfter - manifestBefore,
        rows: { before: rowsBefore, hot: rowsHot, after: rowsAfter },
        localStateBytes: dirBytes(`${root}/v3/d1`),
      },
      objects: { before: objectsBefore, hot: objectsHot, after: objectsAfter },
      archive: {
        byKind: manifestByKind,
        leaseBatchBytes: leaseBytes,
        exitIndexBytes: exitBytes,
        objectsAdded: all.objects - allBefore.objects,
        bytesAdded: all.bytes - allBefore.bytes,
        bytesPerLease: +((leaseBytes + exitBytes) / leases).toFixed(1),
        batchBytesPerLease: +(leaseBytes / leases).toFixed(1),
        indexBytesPerLease: +(exitBytes / leases).toFixed(1),
        allBytesPerCall: +((all.bytes - allBefore.bytes) / extraction.calls).toFixed(1),
        dayIndexObjectsPerBlock: exitObjectsPerBlock(root, dayKey),
      },
      jobRuns: { older: olderRun, day: dayRun },
      trace,
    };
  } finally {
    await server.stop();
  }
}
