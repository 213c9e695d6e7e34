// Queries behind the console's dashboard: revenue, orders, registrations, real-name rate, extraction, live packages,
// pool and node health, the to-do counts, the last retention run and the daily series of the last two weeks. Every
// windowed query is a range on an index.
import { DAY_MS, SHANGHAI_OFFSET_MS } from '../../lib/time';
import { refundIssueSql } from './console-orders';
import { ORDER_STATE } from '../../lib/order-states';
import { PACKAGE_STATE } from '../../lib/package-states';
import { WITHDRAWAL_STATE } from '../../lib/commission-rules';
import { COMPANY_STATE, COMPANY_VERIFIED_SQL } from '../../lib/company-states';

export interface WindowFigures {
  revenueFen: number;
  refundedFen: number;
  paidOrders: number;
  registrations: number;
  extractions: number;
  ipsHandedOut: number;
}

/** Figures for orders paid, refunds, registrations and extraction since a time. */
export async function windowFigures(db: D1Database, since: number): Promise<WindowFigures> {
  const [paid, refunded, regs, ext] = await db.batch<Record<string, number | null>>([
    db
      .prepare(
        `SELECT count(*) AS n, sum(pay_fen) AS fen FROM orders WHERE state IN (${ORDER_STATE.paid}, ${ORDER_STATE.refunded}) AND paid_at >= ?`,
      )
      .bind(since),
    db
      .prepare(
        "SELECT sum(amount_fen) AS fen FROM refunds WHERE status IN ('SUCCESS', 'PROCESSING', 'ABNORMAL') AND created_at >= ?",
      )
      .bind(since),
    db.prepare('SELECT count(*) AS n FROM users WHERE created_at >= ?').bind(since),
    // Charged calls: counted per hour since decision 243 (their logs are in the customers' objects), plus the calls
    // still logged in D1 from before; the IPs of both are in the hour counters.
    db
      .prepare(
        `SELECT (SELECT coalesce(sum(charged), 0) FROM extract_hour_counts INDEXED BY extract_hour_counts_hour
                  WHERE hour_start >= ?1)
              + (SELECT count(*) FROM extract_logs WHERE created_at >= ?1 AND code = 0) AS n,
                (SELECT sum(ips) FROM extract_hour_counts INDEXED BY extract_hour_counts_hour WHERE hour_start >= ?1) AS ips`,
      )
      .bind(since),
  ]);
  const row = (r: D1Result<Record<string, number | null>> | undefined) => r?.results[0] ?? {};
  return {
    revenueFen: row(paid).fen ?? 0,
    refundedFen: row(refunded).fen ?? 0,
    paidOrders: row(paid).n ?? 0,
    registrations: row(regs).n ?? 0,
    extractions: row(ext).n ?? 0,
    ipsHandedOut: row(ext).ips ?? 0,
  };
}

export interface StandingFigures {
  customers: number;
  verifiedCustomers: number;
  livePackages: { productType: number; n: number }[];
  pool: { pool: number; healthy: number; total: number }[];
  /** Pool health per pool, province and carrier (the 40 weakest by healthy share first). */
  poolByRegion: { pool: number; province: string; carrier: string; healthy: number; total: number }[];
  nodes: { id: number; name: string; status: number; lastSeenAt: number; ips: number }[];
  todo: {
    companyReviews: number;
    withdrawals: number;
    refundNeeded: number;
    /** Orders with a refund that needs a person (console-orders refundIssueSql). */
    refundIssues: number;
    /** Orders with an attempt still live at WeChat Pay or Alipay (state pending, not yet expired). */
    pendingAtProvider: number;
    /** Live fixed/premium packages still waiting for dedicated IPs of their region. */
    awaitingIps: number;
  };
  lastRetention: { startedAt: number; finishedAt: number | null; rowsRemoved: number; retentionDays: number } | null;
}

/** The state of the business now (counts that do not depend on a window). */
export async function standingFigures(db: D1Database, now: number): Promise<StandingFigures> {
  const [
    customers,
    verified,
    live,
    pool,
    poolByRegion,
    nodes,
    reviews,
    withdrawals,
    refunds,
    refundIssues,
    pending,
    awaitingIps,
    retention,
  ] = await db.batch<Record<string, number | string | null>>([
    db.prepare('SELECT count(*) AS n FROM users'),
    db.prepare(
      `SELECT count(*) AS n FROM users WHERE is_identity_auth = 1 OR company_auth_state IN (${COMPANY_VERIFIED_SQL})`,
    ),
    db
      .prepare(
        `SELECT product_type AS productType, count(*) AS n FROM proxy_packages WHERE state = ${PACKAGE_STATE.active} AND expires_at > ? GROUP BY product_type ORDER BY product_type`,
      )
      .bind(now),
    db
      .prepare(
        'SELECT pool, sum(healthy = 1 AND expires_at > ?1) AS healthy, count(*) AS total FROM proxy_ips GROUP BY pool ORDER BY pool',
      )
      .bind(now),
    db
      .prepare(
        `SELECT pool, province, carrier, sum(healthy = 1 AND expires_at > ?1) AS healthy, count(*) AS total
           FROM proxy_ips GROUP BY pool, province, carrier
          ORDER BY (healthy * 1.0 / total), pool, province, carrier LIMIT 40`,
      )
      .bind(now),
    db.prepare(
      `SELECT n.id, n.name, n.status, n.last_seen_at AS lastSeenAt, (SELECT count(*) FROM proxy_ips i WHERE i.node_id = n.id) AS ips
       FROM proxy_nodes n ORDER BY n.id LIMIT 50`,
    ),
    db.prepare(`SELECT count(*) AS n FROM company_auths WHERE state = ${COMPANY_STATE.pending}`),
    db.prepare(
      `SELECT count(*) AS n FROM withdrawals WHERE state IN (${WITHDRAWAL_STATE.requested}, ${WITHDRAWAL_STATE.approved})`,
    ),
    db.prepare('SELECT count(*) AS n FROM payments WHERE refund_needed = 1'),
    db.prepare(`SELECT count(DISTINCT r.order_no) AS n FROM refunds r WHERE ${refundIssueSql(now)}`),
    // Orders (not attempts: one order may wait on a WeChat and an Alipay attempt at once) with a live attempt at a provider.
    db
      .prepare("SELECT count(DISTINCT order_no) AS n FROM payments WHERE state = 'pending' AND expires_at > ?")
      .bind(now),
    // Paid fixed/premium packages still short of dedicated IPs (分配中): the region they were bought for has none free.
    db
      .prepare(
        `SELECT count(*) AS n FROM proxy_packages p
          WHERE p.product_type IN (30, 50) AND p.state = ${PACKAGE_STATE.active} AND p.expires_at > ?1
            AND p.ip_count > (SELECT count(*) FROM fixed_allocations f WHERE f.package_id = p.id AND f.released_at = 0)`,
      )
      .bind(now),
    db.prepare(
      'SELECT started_at AS startedAt, finished_at AS finishedAt, rows_removed AS rowsRemoved, retention_days AS retentionDays FROM retention_runs ORDER BY id DESC LIMIT 1',
    ),
  ]);
  const n = (r: D1Result<Record<string, number | string | null>> | undefined) => Number(r?.results[0]?.n ?? 0);
  const last = retention?.results[0];
  return {
    customers: n(customers),
    verifiedCustomers: n(verified),
    livePackages: (live?.results ?? []) as StandingFigures['livePackages'],
    pool: (pool?.results ?? []).map((r) => ({
      pool: Number(r.pool),
      healthy: Number(r.healthy ?? 0),
      total: Number(r.total ?? 0),
    })),
    poolByRegion: (poolByRegion?.results ?? []).map((r) => ({
      pool: Number(r.pool),
      province: String(r.province),
      carrier: String(r.carrier),
      healthy: Number(r.healthy ?? 0),
      total: Number(r.total ?? 0),
    })),
    nodes: (nodes?.results ?? []) as StandingFigures['nodes'],
    todo: {
      companyReviews: n(reviews),
      withdrawals: n(withdrawals),
      refundNeeded: n(refunds),
      refundIssues: n(refundIssues),
      pendingAtProvider: n(pending),
      awaitingIps: n(awaitingIps),
    },
    lastRetention: last
      ? {
          startedAt: Number(last.startedAt),
          finishedAt: last.finishedAt === null ? null : Number(last.finishedAt),
          rowsRemoved: Number(last.rowsRemoved),
          retentionDays: Number(last.retentionDays),
        }
      : null,
  };
}

/** One Shanghai day's figures; `day` counts Shanghai days since the epoch. */
export interface DailyRow {
  day: number;
  revenueFen: number;
  paidOrders: number;
  extractions: number;
}

/** Paid revenue, paid orders and successful extractions per Shanghai day since `since`; days with none are absent. */
export async function dailyFigures(db: D1Database, since: number): Promise<DailyRow[]> {
  const [paid, ext] = await db.batch<Record<string, number | null>>([
    db
      .prepare(
        `SELECT (paid_at + ${SHANGHAI_OFFSET_MS}) / ${DAY_MS} AS d, count(*) AS n, sum(pay_fen) AS fen
           FROM orders WHERE state IN (${ORDER_STATE.paid}, ${ORDER_STATE.refunded}) AND paid_at >= ? GROUP BY d`,
      )
      .bind(since),
    db
      .prepare(
        `SELECT d, sum(n) AS n FROM (
           SELECT (created_at + ${SHANGHAI_OFFSET_MS}) / ${DAY_MS} AS d, count(*) AS n
             FROM extract_logs WHERE created_at >= ?1 AND code = 0 GROUP BY d
           UNION ALL
           SELECT (hour_start + ${SHANGHAI_OFFSET_MS}) / ${DAY_MS} AS d, sum(charged) AS n
             FROM extract_hour_counts INDEXED BY extract_hour_counts_hour WHERE hour_start >= ?1 AND charged > 0 GROUP BY d)
         GROUP BY d`,
      )
      .bind(since),
  ]);
  const days = new Map<number, DailyRow>();
  const at = (d: number): DailyRow => {
    const row = days.get(d) ?? { day: d, revenueFen: 0, paidOrders: 0, extractions: 0 };
    days.set(d, row);
    return row;
  };
  for (const r of paid?.results ?? []) {
    const row = at(Number(r.d));
    row.revenueFen = Number(r.fen ?? 0);
    row.paidOrders = Number(r.n ?? 0);
  }
  for (const r of ext?.results ?? []) at(Number(r.d)).extractions = Number(r.n ?? 0);
  return [...days.values()];
}
