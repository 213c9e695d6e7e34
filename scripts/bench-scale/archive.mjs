// bench:scale, archive: D1 stays flat while delivery history grows, what the archive costs per lease, and how fast the
// operator's trace answers from it (issue 26 "Done when"). On a copy of the demo database:
//   1,000 customers (a package each) and one heavy customer (the demo user) at the documented cap, 10 calls a second
//   of num=10 — 864,000 calls and 8.64 million leases a real day;
//   29 older days of history, archived first (the trace's 30 days); then the simulated day, 9 days back (past the
//   7-day hot window and the extra day usage rows wait), written into D1 and archived by the real hourly job (`7 * * * *` through wrangler dev's
//   /__scheduled), run until nothing old is left;
//   D1's used bytes (pages minus free pages) before the day, with it, and after the job; the archive's bytes per lease
//   (customer batches from the manifest, the exit index from the local R2 store); Admin.ExitTrace over /api for leases
//   picked across the 30 days, p50 / p90.
// The volume is SAMPLED (see `sampling` in the result): every heavy call stands for HEAVY_SAMPLE real ones and every
// customer call for CUSTOMER_SAMPLE; the report scales the figures back up and says how.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DAY, SH, sqliteFile } from './generate.mjs';

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

const dirBytes = (d) =>
  existsSync(d)
    ? readdirSync(d, { recursive: true })
        .map((f) => join(d, String(f)))
        .filter((f) => statSync(f).isFile())
        .reduce((a, f) => a + statSync(f).size, 0)
    : 0;

/** Customers, their packages, the exits and an operator session (role support) on the copied demo data. */
function setUp(file, { customers, now }) {
  const db = new DatabaseSync(file);
  const heavy = db.prepare("SELECT id FROM users WHERE phone = '13800138000'").get().id;
  const heavyPackage = db.prepare('SELECT id FROM proxy_packages WHERE user_id = ? ORDER BY id LIMIT 1').get(heavy).id;
  const firstUser = db.prepare('SELECT coalesce(max(id), 0) + 1 AS n FROM users').get().n;
  const seq = (n) => `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})`;
  db.exec(`BEGIN;
    ${seq(customers)} INSERT INTO users (phone, status, created_at, updated_at)
      SELECT '166' || printf('%08d', i), 1, ${now - 400 * DAY}, ${now} FROM s;
    INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count,
      remaining_count, starts_at, expires_at, state, source, created_at, updated_at)
      SELECT id, 10, 1, 'bench', 5, 1000000, 1000000, ${now - 60 * DAY}, ${now + 60 * DAY}, 1, 'operator', ${now}, ${now}
      FROM users WHERE id >= ${firstUser};
    ${seq(EXITS)} INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key,
      carrier, expires_at, healthy, checked_at, created_at)
      SELECT 1, 10, '10.77.' || ((i - 1) / 250) || '.' || (((i - 1) % 250) + 1), 21000, 7, '广东省', '广州市', '广东', '广州',
        '电信', ${now - DAY}, 0, ${now}, ${now} FROM s;
    INSERT INTO operators (username, display_name, role, password_hash, created_at, updated_at)
      VALUES ('bench_support', '压测客服', 'support', 'x', ${now}, ${now});
    INSERT INTO operator_sessions (token_hash, operator_id, stage, created_at, last_seen_at, expires_at, ip)
      SELECT '${createHash('sha256').update(ADMIN_TOKEN).digest('hex')}', id, 'active', ${now}, ${now}, ${now + DAY},
        '127.0.0.1' FROM operators WHERE username = 'bench_support';
    COMMIT;`);
  const packages = db
    .prepare('SELECT user_id AS u, id AS p FROM proxy_packages WHERE user_id >= ? ORDER BY user_id')
    .all(firstUser);
  const exits = db.prepare("SELECT id, ip, port FROM proxy_ips WHERE ip LIKE '10.77.%' ORDER BY id").all();
  db.close();
  return { heavy: { u: heavy, p: heavyPackage }, packages, exits };
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

/** Runs the hourly archive job until no row older than the hot window is left in D1 (or `maxRuns`). */
async function archiveAll(server, file, { cutoff, maxRuns = 400 }) {
  const left = () =>
    count(
      file,
      `SELECT (SELECT count(*) FROM ip_assignments WHERE expires_at < ${cutoff})
      + (SELECT count(*) FROM extract_logs WHERE created_at < ${cutoff})
      + (SELECT count(*) FROM node_usage WHERE period_start < ${cutoff - DAY})`,
    );
  const t0 = performance.now();
  let runs = 0;
  while (left() > 0 && runs < maxRuns) {
    const r = await fetch(`${server.base}/__scheduled?cron=${encodeURIComponent('7 * * * *')}`);
    if (!r.ok) throw new Error(`archive job: ${r.status} ${(await r.text()).slice(0, 300)}`);
    runs++;
  }
  return { runs, left: left(), seconds: Math.round((performance.now() - t0) / 100) / 10 };
}

/** 北京时间 "YYYY-MM-DD HH:mm:ss" of an instant (the trace's input). */
const beijing = (ms) => new Date(ms + SH).toISOString().slice(0, 19).replace('T', ' ');

/** Admin.ExitTrace for each probe; latencies in ms and how many found their lease. */
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
    if (body.P.holders.some((h) => h.userId === p.u && h.from === 'archive')) found++;
  }
  latencies.sort((a, b) => a - b);
  const pct = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  return { probes: probes.length, found, p50: pct(0.5), p90: pct(0.9), max: pct(1) };
}

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
}) {
  const root = `${dir}/archive`;
  rmSync(root, { recursive: true, force: true });
  cpSync(demoState, root, { recursive: true });
  const file = sqliteFile(root);
  const { heavy, packages, exits } = setUp(file, { customers, now });
  const midnight = now - ((now + SH) % DAY);
  const heavyCalls = Math.round(HEAVY_CALLS_PER_DAY / heavySample);
  const customerCalls = Math.max(1, Math.round(CUSTOMER_CALLS_PER_DAY / customerSample));
  const dayOf = (back) => midnight - back * DAY;
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
  // The 29 older days (10..38 days back): the heavy customer and a few others each day. The trace's probes are picked
  // from each day's leases while they are still in D1.
  const perDay = Math.max(1, Math.round(traces / days));
  const tracePicks = [];
  const older = [];
  for (let back = 10; back < 9 + days; back++) {
    const some = packages.slice((back * OLDER_DAY_CUSTOMERS) % packages.length).slice(0, OLDER_DAY_CUSTOMERS);
    older.push(
      writeDay(file, {
        dayStart: dayOf(back),
        holders: [{ ...heavy, calls: heavyCalls }, ...some.map((c) => ({ ...c, calls: customerCalls }))],
        exits,
        now,
      }),
    );
    tracePicks.push(...probesFrom(back, perDay));
  }
  const cutoff = midnight - 7 * DAY;
  await server.start(root);
  try {
    const olderRun = await archiveAll(server, file, { cutoff });
    console.log(
      `  ${older.length} older days archived: ${olderRun.runs} job runs, ${olderRun.seconds} s, ${olderRun.left} rows left`,
    );
    const before = usedBytes(file);
    const manifestBefore = count(file, 'SELECT count(*) FROM archive_objects');
    const leaseBytesBefore = count(file, "SELECT coalesce(sum(bytes), 0) FROM archive_objects WHERE kind = 'lease'");
    const exitBefore = r2Bytes(root, 'archive/v1/exit/');
    const allBefore = r2Bytes(root, 'archive/v1/');
    // The simulated day: every customer and the heavy one, 9 days back (usage rows leave D1 a day after leases).
    const day = writeDay(file, {
      dayStart: dayOf(9),
      holders: [{ ...heavy, calls: heavyCalls }, ...packages.map((c) => ({ ...c, calls: customerCalls }))],
      exits,
      now,
    });
    tracePicks.push(...probesFrom(9, perDay));
    const peak = usedBytes(file);
    const dayRun = await archiveAll(server, file, { cutoff });
    console.log(`  simulated day archived: ${dayRun.runs} job runs, ${dayRun.seconds} s, ${dayRun.left} rows left`);
    const after = usedBytes(file);
    const manifestAfter = count(file, 'SELECT count(*) FROM archive_objects');
    const leaseBytes =
      count(file, "SELECT coalesce(sum(bytes), 0) FROM archive_objects WHERE kind = 'lease'") - leaseBytesBefore;
    const exitIndex = r2Bytes(root, 'archive/v1/exit/');
    const all = r2Bytes(root, 'archive/v1/');
    const trace = await traceProbes(server, tracePicks);
    console.log(
      `  trace over ${days} days of archive: p50 ${trace.p50} ms, p90 ${trace.p90} ms, ${trace.found}/${trace.probes} found`,
    );
    const exitBytes = exitIndex.bytes - exitBefore.bytes;
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
      },
      day: { ...day, realCalls: HEAVY_CALLS_PER_DAY + customers * CUSTOMER_CALLS_PER_DAY },
      d1: {
        before,
        peak,
        after,
        manifestRowsAdded: manifestAfter - manifestBefore,
        localStateBytes: dirBytes(`${root}/v3/d1`),
      },
      archive: {
        leaseBatchBytes: leaseBytes,
        exitIndexBytes: exitBytes,
        objectsAdded: all.objects - allBefore.objects,
        bytesAdded: all.bytes - allBefore.bytes,
        bytesPerLease: +((leaseBytes + exitBytes) / day.leases).toFixed(1),
        batchBytesPerLease: +(leaseBytes / day.leases).toFixed(1),
        indexBytesPerLease: +(exitBytes / day.leases).toFixed(1),
        allBytesPerCall: +((all.bytes - allBefore.bytes) / day.calls).toFixed(1),
      },
      jobRuns: { older: olderRun, day: dayRun },
      trace: { days, ...trace },
    };
  } finally {
    await server.stop();
  }
}
