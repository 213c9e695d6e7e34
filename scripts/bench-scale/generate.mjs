// bench:scale, generate: the bench database. The demo data (migrated and seeded by wrangler and scripts/seed.mjs) is
// set up for benching; the large database adds generated rows straight into the local D1 SQLite file (recursive CTEs
// through node:sqlite, no HTTP); a kept large database is refreshed to today instead of generated again.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

export const SH = 28_800_000;
export const DAY = 86_400_000;
/** The bench session's cookie token (the demo user, the heavy customer). */
export const TOKEN = 'benchscale-session-token-0123456789abcdef';

/** The clock of one run: now, the Shanghai day it falls in and how far into that day it is. */
export function clock(now = Date.now()) {
  return { now, today: new Date(now + SH).toISOString().slice(0, 10), sinceMidnight: (now + SH) % DAY };
}

/** The local D1 database file wrangler keeps under a state directory. */
export function sqliteFile(root) {
  const base = `${root}/v3/d1/miniflare-D1DatabaseObject`;
  const file = readdirSync(base).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (!file) throw new Error(`no D1 file under ${base}`);
  return `${base}/${file}`;
}

const rows = (db, table) => db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n;

/** Bench settings on the demo data: the demo user calls without refusals and has a known session. */
export function prepareDemo(root, { now }) {
  const db = new DatabaseSync(sqliteFile(root));
  const hash = createHash('sha256').update(TOKEN).digest('hex');
  db.exec(`
    UPDATE proxy_api_credentials SET rate_limit = 1000000;
    UPDATE proxy_packages SET remaining_count = 100000000, total_count = 100000000, daily_limit = 0 WHERE source = 'demo';
    INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, ip, user_agent)
      SELECT '${hash}', id, ${now}, ${now}, ${now + 30 * DAY}, '127.0.0.1', 'bench' FROM users WHERE phone = '13800138000';
  `);
  db.close();
}

/**
 * Generated rows on top of the demo data copied to `root`; returns the table sizes and seconds taken.
 * `sizes`: { ips, users, logs, assignments, heavyIps }.
 */
export function generate(root, { ips, users, logs, assignments, heavyIps }, { now, today, sinceMidnight }) {
  const t0 = performance.now();
  const db = new DatabaseSync(sqliteFile(root));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -200000;');
  const heavy = db.prepare("SELECT id FROM users WHERE phone = '13800138000'").get().id;
  const cities = [
    ['北京市', '北京市'],
    ['上海市', '上海市'],
    ['广东省', '广州市'],
    ['广东省', '深圳市'],
    ['浙江省', '杭州市'],
    ['四川省', '成都市'],
    ['重庆市', '重庆市'],
    ['湖北省', '武汉市'],
    ['陕西省', '西安市'],
    ['江苏省', '南京市'],
    ['天津市', '天津市'],
    ['江苏省', '苏州市'],
    ['湖南省', '长沙市'],
    ['河南省', '郑州市'],
    ['广东省', '东莞市'],
    ['山东省', '青岛市'],
    ['安徽省', '合肥市'],
    ['广东省', '佛山市'],
    ['浙江省', '宁波市'],
    ['福建省', '厦门市'],
    ['河北省', '石家庄市'],
    ['山西省', '太原市'],
    ['辽宁省', '沈阳市'],
    ['吉林省', '长春市'],
    ['黑龙江省', '哈尔滨市'],
    ['江西省', '南昌市'],
    ['广西壮族自治区', '南宁市'],
    ['海南省', '海口市'],
    ['贵州省', '贵阳市'],
    ['云南省', '昆明市'],
    ['甘肃省', '兰州市'],
    ['福建省', '福州市'],
    ['山东省', '济南市'],
    ['河北省', '保定市'],
    ['江苏省', '无锡市'],
    ['浙江省', '温州市'],
    ['湖北省', '宜昌市'],
    ['湖南省', '株洲市'],
    ['河南省', '洛阳市'],
    ['四川省', '绵阳市'],
  ];
  const key = (s) => s.replace(/(壮族自治区|省|市)$/, '');
  db.exec('CREATE TEMP TABLE c (k INTEGER PRIMARY KEY, province TEXT, city TEXT, pk TEXT, ck TEXT)');
  const ins = db.prepare('INSERT INTO c VALUES (?, ?, ?, ?, ?)');
  cities.forEach(([p, c], i) => {
    ins.run(i, p, c, key(p), key(c));
  });
  const seq = (n) => `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})`;
  const timed = (label, sql) => {
    const t = performance.now();
    db.exec(`BEGIN; ${sql}; COMMIT;`);
    console.log(`  ${label} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  };
  // Bulk load: the history tables' indexes are dropped and rebuilt after the inserts (one sort per index instead of
  // millions of random B-tree inserts); their definitions come from the migrated schema itself.
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('extract_logs', 'ip_assignments')",
    )
    .all();
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
  // Likewise the assignments' lease-notice trigger (migration 0023): generated history needs no node notices; and the
  // log's hourly-counter trigger (0026), whose counters are recomputed in one pass after the load.
  const triggers = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('ip_assignments', 'extract_logs')",
    )
    .all();
  for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
  const firstUser = db.prepare('SELECT coalesce(max(id), 0) + 1 AS n FROM users').get().n;
  timed(
    `${users} users`,
    `${seq(users)} INSERT INTO users (phone, status, created_at, updated_at)
     SELECT '17' || printf('%09d', i), 1, ${now - 400 * DAY}, ${now} FROM s`,
  );
  const firstIp = db.prepare('SELECT coalesce(max(id), 0) + 1 AS n FROM proxy_ips').get().n;
  timed(
    `${ips} pool IPs (5% unhealthy)`,
    `${seq(ips)} INSERT INTO proxy_ips (node_id, pool, ip, port, protocols, province, city, province_key, city_key,
       carrier, expires_at, healthy, checked_at, created_at)
     SELECT 1, 10, '10.' || ((i >> 16) & 255) || '.' || ((i >> 8) & 255) || '.' || (i & 255), 20000 + (i >> 24), 7,
       c.province, c.city, c.pk, c.ck, CASE i % 3 WHEN 0 THEN '电信' WHEN 1 THEN '联通' ELSE '移动' END,
       ${now + 3_600_000} + (i % 7200) * 1000, CASE WHEN i % 20 = 0 THEN 0 ELSE 1 END, ${now}, ${now}
     FROM s JOIN c ON c.k = (i * 7919) % ${cities.length}`,
  );
  timed(
    `${logs} extraction logs over 180 days`,
    `${seq(logs)} INSERT INTO extract_logs (user_id, package_id, product_type, client_ip, requested, returned, code,
       query, created_at)
     SELECT ${firstUser} + abs(random()) % ${users}, NULL, 10, '192.0.2.1', 10, 10, 0, 'num=10',
       ${now} - abs(random()) % ${180 * DAY} FROM s`,
  );
  // The heavy customer: 2,000 calls today (20,000 IPs) and 300 a day over the last 180 days.
  timed(
    'heavy customer logs',
    `${seq(2000)} INSERT INTO extract_logs (user_id, package_id, product_type, client_ip, requested, returned, code,
       query, created_at)
     SELECT ${heavy}, NULL, 10, '127.0.0.1', 10, 10, 0, 'num=10&format=json', ${now} - abs(random()) % ${Math.max(1, sinceMidnight)}
     FROM s;
     ${seq(300 * 180)} INSERT INTO extract_logs (user_id, package_id, product_type, client_ip, requested, returned,
       code, query, created_at)
     SELECT ${heavy}, NULL, 10, '127.0.0.1', 10, 10, 0, 'num=10&format=json', ${now} - abs(random()) % ${180 * DAY}
     FROM s`,
  );
  timed(
    `${assignments} IP assignments`,
    `${seq(assignments)} INSERT INTO ip_assignments (user_id, package_id, log_id, ip_id, product_type, ip, port,
       protocol, region, carrier, day, assigned_at, expires_at)
     SELECT u, 1, NULL, ${firstIp} + abs(random()) % ${ips}, 10, '10.0.0.1', 20000, 'http', '广东省广州市', '电信',
       strftime('%Y-%m-%d', (t + ${SH}) / 1000, 'unixepoch'), t, t + 300000
     FROM (SELECT ${firstUser} + abs(random()) % ${users} AS u, ${now} - abs(random()) % ${180 * DAY} AS t FROM s)`,
  );
  timed(`${indexes.length} history indexes rebuilt`, indexes.map((i) => i.sql).join(';\n'));
  timed(
    'hourly extraction counters recomputed from the log',
    `DELETE FROM extract_hour_counts;
     INSERT INTO extract_hour_counts (user_id, hour_start, calls, ips)
     SELECT user_id, (created_at / 3600000) * 3600000 AS h, count(*), sum(returned)
     FROM extract_logs WHERE true GROUP BY user_id, h`,
  );
  timed(
    `heavy customer: ${heavyIps} distinct IPs handed out today`,
    `INSERT INTO ip_assignments (user_id, package_id, log_id, ip_id, product_type, ip, port, protocol, region, carrier,
       day, assigned_at, expires_at)
     SELECT ${heavy}, 1, NULL, id, 10, ip, port, 'http', province || city, carrier, '${today}', t, t + 300000
     FROM (SELECT id, ip, port, province, city, carrier, ${now} - abs(random()) % ${Math.max(1, sinceMidnight)} AS t
           FROM proxy_ips WHERE pool = 10 AND healthy = 1 ORDER BY random() LIMIT ${heavyIps})`,
  );
  timed(
    `${Math.round(users / 2)} packages, ${Math.round(users / 5)} orders, ${Math.round(users / 10)} white-list IPs, notice reads`,
    `${seq(Math.round(users / 2))} INSERT INTO proxy_packages (user_id, product_type, billing_method, name,
       ip_duration_minutes, total_count, remaining_count, starts_at, expires_at, state, source, created_at, updated_at)
     SELECT ${firstUser} + abs(random()) % ${users}, CASE i % 3 WHEN 0 THEN 10 WHEN 1 THEN 40 ELSE 30 END, 1, 'bench',
       5, 1000, 500, ${now - 30 * DAY}, ${now} + (i % 60) * ${DAY} - ${20 * DAY}, 1, 'operator', ${now}, ${now} FROM s;
     ${seq(Math.round(users / 5))} INSERT INTO orders (order_no, user_id, kind, product_type, title, list_fen, pay_fen,
       state, expires_at, created_at)
     SELECT 'BENCH' || printf('%010d', i), ${firstUser} + abs(random()) % ${users}, 1, 10, 'bench', 1000, 1000,
       2, ${now - DAY}, ${now} - abs(random()) % ${365 * DAY} FROM s;
     ${seq(300)} INSERT INTO orders (order_no, user_id, kind, product_type, title, list_fen, pay_fen, state,
       expires_at, created_at)
     SELECT 'HEAVY' || printf('%06d', i), ${heavy}, 1, 10, 'bench', 1000, 1000, 2, ${now - DAY},
       ${now} - i * ${DAY / 2} FROM s;
     ${seq(Math.round(users / 10))} INSERT INTO white_list (user_id, ip, enabled, expires_at, created_at, updated_at)
     SELECT ${firstUser} + (i * 7) % ${users}, '10.9.' || ((i >> 8) & 255) || '.' || (i & 255), 1, 0, ${now}, ${now}
     FROM s;
     INSERT OR IGNORE INTO notice_reads (user_id, notice_id, read_at)
     SELECT u.id, n.id, ${now} FROM (SELECT id FROM users WHERE id >= ${firstUser} AND id % 3 = 0) u
     CROSS JOIN home_notices n`,
  );
  for (const t of triggers) db.exec(t.sql);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;');
  const sizes = Object.fromEntries(
    [
      'users',
      'proxy_ips',
      'extract_logs',
      'ip_assignments',
      'proxy_packages',
      'orders',
      'white_list',
      'notice_reads',
    ].map((t) => [t, rows(db, t)]),
  );
  sizes.heavy_assignments_today = db
    .prepare('SELECT count(*) AS n FROM ip_assignments WHERE user_id = ? AND day = ?')
    .get(heavy, today).n;
  sizes.pool10_healthy = db.prepare('SELECT count(*) AS n FROM proxy_ips WHERE pool = 10 AND healthy = 1').get().n;
  db.close();
  return { sizes, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}

/** The kept large database under `root`, if it was built with these sizes: { args, sizes, seconds, today }. */
export function keptLarge(root, args) {
  try {
    const kept = JSON.parse(readFileSync(`${root}/built.json`, 'utf8'));
    return JSON.stringify(kept.args) === JSON.stringify(args) ? kept : null;
  } catch {
    return null;
  }
}

/** A kept database benched later: pool IPs live again, the heavy customer's IPs on today, the session fresh. */
export function refresh(root, kept, { now, today }) {
  const db = new DatabaseSync(sqliteFile(root));
  const heavy = db.prepare("SELECT id FROM users WHERE phone = '13800138000'").get().id;
  const hash = createHash('sha256').update(TOKEN).digest('hex');
  db.exec(`
    UPDATE proxy_ips SET expires_at = ${now + 3_600_000} + (id % 7200) * 1000, checked_at = ${now}
      WHERE node_id = 1 AND pool = 10 AND ip LIKE '10.%';
    UPDATE ip_assignments SET day = '${today}' WHERE user_id = ${heavy} AND day = '${kept.today}' AND log_id IS NULL;
    UPDATE sessions SET last_seen_at = ${now}, expires_at = ${now + 30 * DAY} WHERE token_hash = '${hash}';
  `);
  db.close();
}
