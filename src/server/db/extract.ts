// Queries behind GET /extract: the per-user rate counter, the white-list check, the packages to charge, the IP
// candidates, the conditional quota updates and the log/assignment writes.
import { shanghaiDayStart } from '../../lib/time';
/** One charged call as D1's receipt carries it (extractInOneBatch's receipt insert; decision 243). */
export interface ReceiptBody {
  package: number;
  type: number;
  clientIp: string;
  requested: number;
  query: string;
  protocol: string;
  day: string;
  /** The call's id when its caller gave one (a dedup call: decision 253), else null. */
  call?: string | null;
  /** [ipId, ip, port, region, carrier, expiresAt, nodeId] per IP. */
  ips: [number, string, number, string, string, number, number][];
}

export interface Receipt {
  id: number;
  userId: number;
  createdAt: number;
  body: ReceiptBody;
}

export interface PackageForExtract {
  id: number;
  billingMethod: 1 | 2;
  remainingCount: number;
  dailyLimit: number;
  usedToday: number;
  usageDay: string;
  durationMinutes: number;
  state: number;
  startsAt: number;
  expiresAt: number;
}

export interface CandidateFilter {
  pool: 10 | 40;
  protocolBit: number;
  minExpiresAt: number;
  regions: string[];
  excludes: string[];
  carriers: string[];
  limit: number;
  /** dedup 1: skip IPs handed to this user on this Shanghai day. */
  excludeDay: string | null;
  /** dedup 2: skip IPs this user still holds at this instant. */
  excludeInUseAt: number | null;
  userId: number;
}

/**
 * A package reserved as a source of an unpaid upgrade/merge order is frozen until that order is paid (retired) or
 * closed (released): its credit was fixed when the order was placed (docs/decisions/031).
 */
export const RESERVATION_FREE =
  'NOT EXISTS (SELECT 1 FROM order_merge_sources m WHERE m.package_id = proxy_packages.id AND m.active = 1)';

/** The size of the random key space of proxy_ips.rnd (migration 0011): rnd is uniform in [0, RND_SPACE). */
export const RND_SPACE = 2 ** 31;

/**
 * Rows each seek reads in random-key order: the call samples its n IPs uniformly from the first `window` matching IPs
 * after a random start, so consecutive IPs in key order are not always handed out together (docs/decisions/081).
 */
export const candidateWindow = (n: number): number => Math.min(2 * n + 40, 440);

/** With more region keys than this the call scans the pool index with the region filter as a residual condition. */
export const MAX_REGION_SEEKS = 8;

/**
 * Whether this user already had the IP (as `ipId`, an SQL expression), for the dedup modes: dedup=1 skips IPs handed to
 * the user on this Shanghai day, dedup=2 IPs the user still holds. Both read the IP's leases that end after ?9
 * (ip_assignments_ip_live, docs/decisions/184): for dedup=1 every IP handed out today ends after the day's start, so
 * ?9 is that start and the day (?8) is checked on the caller's rows; for dedup=2 ?9 is now.
 */
const heldBefore = (
  f: CandidateFilter,
  ipId: string,
  user: string,
  p: { day: string; since: string } = { day: '?8', since: '?9' },
) =>
  `EXISTS (SELECT 1 FROM ip_assignments a INDEXED BY ip_assignments_ip_live
     WHERE a.ip_id = ${ipId} AND a.expires_at > ${p.since} AND a.user_id = ${user}${f.excludeDay ? ` AND a.day = ${p.day}` : ''})`;

/** Whether the filter asks to skip IPs this user already had (dedup=1 or 2). */
const dedups = (f: CandidateFilter) => f.excludeDay !== null || f.excludeInUseAt !== null;

/**
 * The candidate seeks for a filter and a random start in [0, RND_SPACE), all with the same binds (?1..?11): one for
 * the whole pool, or one per region key as province and one as city. A seek reads its region key from the list ?4 by
 * position (`json_extract`, a constant of the statement, so the seek still starts at its key in its index), so every
 * seek of a call fits one statement. Each reads one index in rnd order twice, [start, end) and the wrap-around
 * [0, start), stopping after `window` matches. Every other filter is checked per index entry read, so the cost
 * follows the rows read, not the pool or the history; so is the dedup probe against the caller's assignments unless
 * `probe` is false (then the draw probes only the IPs it is about to hand out, see drawStatement). Each arm selects
 * only `id` and `rnd`, all the draw uses.
 */
export function candidateQueries(
  f: CandidateFilter,
  start: number,
  caller?: { apiKeyHash: string },
  { probe = true }: { probe?: boolean } = {},
): { seeks: string[]; binds: unknown[] } {
  // The caller's user id: bound (?7), or resolved from the extraction key in the same statement (an uncorrelated
  // subquery SQLite evaluates once); an unknown key or a disabled account makes the seek a constant-false no-op.
  const user = caller ? callerUserSql('?7') : '?7';
  const residual = ['healthy = 1', 'expires_at >= ?2', '(protocols & ?3) != 0'];
  if (caller) residual.unshift(`${user} IS NOT NULL`);
  if (f.excludes.length) {
    residual.push(
      'province_key NOT IN (SELECT value FROM json_each(?5)) AND city_key NOT IN (SELECT value FROM json_each(?5))',
    );
  }
  if (f.carriers.length) residual.push('carrier IN (SELECT value FROM json_each(?6))');
  if (probe && dedups(f)) residual.push(`NOT ${heldBefore(f, 'proxy_ips.id', user)}`);
  const binds: unknown[] = [
    f.pool,
    f.minExpiresAt,
    f.protocolBit,
    JSON.stringify(f.regions),
    JSON.stringify(f.excludes),
    JSON.stringify(f.carriers),
    caller ? caller.apiKeyHash : f.userId,
    f.excludeDay ?? '',
    f.excludeInUseAt ?? (f.excludeDay ? shanghaiDayStart(f.excludeDay) : 0),
    candidateWindow(f.limit),
    start,
  ];
  const seeks: { index: string; eq: string }[] = [];
  if (f.regions.length > 0 && f.regions.length <= MAX_REGION_SEEKS) {
    f.regions.forEach((_, k) => {
      seeks.push({ index: 'proxy_ips_rnd_province', eq: `province_key = json_extract(?4, '$[${k}]')` });
      seeks.push({ index: 'proxy_ips_rnd_city', eq: `city_key = json_extract(?4, '$[${k}]')` });
    });
  } else {
    if (f.regions.length) {
      residual.push(
        '(province_key IN (SELECT value FROM json_each(?4)) OR city_key IN (SELECT value FROM json_each(?4)))',
      );
    }
    seeks.push({ index: 'proxy_ips_rnd', eq: '' });
  }
  const cond = residual.join(' AND ');
  const arm = (s: { index: string; eq: string }, range: string) =>
    `SELECT * FROM (SELECT id, rnd FROM proxy_ips INDEXED BY ${s.index}
       WHERE pool = ?1${s.eq ? ` AND ${s.eq}` : ''} AND ${range} AND ${cond} ORDER BY rnd LIMIT ?10 + 0)`;
  return { seeks: seeks.map((s) => `${arm(s, 'rnd >= ?11')}\n UNION ALL ${arm(s, 'rnd < ?11')}`), binds };
}

/** D1 refuses a compound SELECT of more than five terms; a nested one counts on its own. */
const MAX_COMPOUND_TERMS = 5;

/** `terms` as one UNION ALL, nested in groups so that no compound has more than MAX_COMPOUND_TERMS terms. */
function unionAll(terms: string[]): string {
  if (terms.length <= MAX_COMPOUND_TERMS) return terms.join('\n UNION ALL ');
  const size = Math.ceil(terms.length / MAX_COMPOUND_TERMS);
  const groups: string[] = [];
  for (let i = 0; i < terms.length; i += size) {
    groups.push(`SELECT * FROM (${unionAll(terms.slice(i, i + size))})`);
  }
  return unionAll(groups);
}

/** n items chosen uniformly at random from `rows` (all of them, in random order, when there are at most n). */
export function sample<T>(rows: T[], n: number, random: () => number = Math.random): T[] {
  const a = rows.slice();
  const k = Math.min(n, a.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (a.length - i));
    const t = a[i] as T;
    a[i] = a[j] as T;
    a[j] = t;
  }
  return a.slice(0, k);
}

/**
 * The user id behind an extraction key, as an SQL expression over the parameter holding the key's hash
 * (docs/decisions/199): NULL for an unknown key or a disabled account (`users.status != 1`), so every statement of
 * the extraction batch that uses it does nothing for them. A unique-index probe of `api_key` plus the user's primary
 * key, evaluated once per statement.
 */
export const callerUserSql = (keyParam: string) =>
  `(SELECT c.user_id FROM proxy_api_credentials c JOIN users u ON u.id = c.user_id AND u.status = 1
    WHERE c.api_key = ${keyParam})`;

/** Whether the calling IP `ip` is on the white list of `user` and live at `now` (all three SQL expressions). */
const whiteListedSql = (user: string, ip: string, now: string) =>
  `EXISTS (SELECT 1 FROM white_list WHERE user_id = ${user} AND ip = ${ip} AND enabled = 1
             AND (expires_at = 0 OR expires_at > ${now}))`;

/**
 * What names a refusal (docs/decisions/171, 182, 184), read in a second round trip only when a known key within its
 * rate limit was not charged, so a successful call reads nothing more: whether the caller's IP (?2) is white-listed,
 * on every row, and the caller's live packages of the type (?4; only package ?5 unless 0) one per row, soonest
 * expiring first; a caller without such a package gets one row whose package columns are NULL.
 */
const REFUSAL_FACTS = `SELECT ${whiteListedSql('?1', '?2', '?3')} AS white,
           proxy_packages.id, billing_method, remaining_count, daily_limit, used_today, usage_day, ip_duration_minutes,
           state, starts_at, proxy_packages.expires_at
         FROM (SELECT 1) LEFT JOIN proxy_packages
           ON proxy_packages.user_id = ?1 AND product_type = ?4 AND state IN (1, 3) AND proxy_packages.expires_at > ?3
             AND (?5 = 0 OR proxy_packages.id = ?5) AND ${RESERVATION_FREE}
         ORDER BY proxy_packages.expires_at, proxy_packages.id`;

/** Who is extracting: a caller already proven (an AES token call), or a bare key checked inside the batch. */
export type ExtractCallerRef = { userId: number; rateLimit: number } | { apiKeyHash: string };

/** A package row of REFUSAL_FACTS as the domain reads it. */
const packageRow = (p: Record<string, unknown>): PackageForExtract => ({
  id: p.id as number,
  billingMethod: p.billing_method as 1 | 2,
  remainingCount: p.remaining_count as number,
  dailyLimit: p.daily_limit as number,
  usedToday: p.used_today as number,
  usageDay: p.usage_day as string,
  durationMinutes: p.ip_duration_minutes as number,
  state: p.state as number,
  startsAt: p.starts_at as number,
  expiresAt: p.expires_at as number,
});

export interface ExtractLogEntry {
  userId: number;
  packageId: number | null;
  productType: number;
  clientIp: string;
  requested: number;
  returned: number;
  code: number;
  query: string;
  now: number;
}

const LOG_COLUMNS = 'user_id, package_id, product_type, client_ip, requested, returned, code, query, created_at';
const logBinds = (e: ExtractLogEntry) => [
  e.userId,
  e.packageId,
  e.productType,
  e.clientIp,
  e.requested,
  e.returned,
  e.code,
  e.query,
  e.now,
];

/** Log a failed call. */
export async function insertExtractLog(db: D1Database, e: ExtractLogEntry): Promise<void> {
  await db
    .prepare(`INSERT INTO extract_logs (${LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .bind(...logBinds(e))
    .run();
}

export interface AssignmentRow {
  ipId: number;
  ip: string;
  port: number;
  region: string;
  carrier: string;
  expiresAt: number;
}

/** The IPs a receipt charged, as the call answers them. */
export const receiptIps = (receipt: Pick<Receipt, 'body'>): AssignmentRow[] =>
  receipt.body.ips.map(([ipId, ip, port, region, carrier, expiresAt]) => ({
    ipId,
    ip,
    port,
    region,
    carrier,
    expiresAt,
  }));

/**
 * Count one wrong extraction key from a calling IP: a window opens at the first failure and lasts `windowMs`; a
 * failure after it opens a new one. One conditional upsert; returns the count and the window start after it.
 */
export async function countKeyFailure(
  db: D1Database,
  clientIp: string,
  now: number,
  windowMs: number,
): Promise<{ count: number; startedAt: number }> {
  const row = await db
    .prepare(
      `INSERT INTO extract_key_failures (client_ip, started_at, count) VALUES (?1, ?2, 1)
       ON CONFLICT(client_ip) DO UPDATE SET
         count = CASE WHEN ?2 - started_at >= ?3 THEN 1 ELSE count + 1 END,
         started_at = CASE WHEN ?2 - started_at >= ?3 THEN ?2 ELSE started_at END
       RETURNING count, started_at`,
    )
    .bind(clientIp, now, windowMs)
    .first<{ count: number; started_at: number }>();
  return { count: row?.count ?? 1, startedAt: row?.started_at ?? now };
}

/**
 * Whether a package can give `n` IPs now, for either billing method, as an SQL condition over proxy_packages, with the
 * IP count `n`, the instant `now` and the Shanghai day `day` given as SQL expressions (the one-batch extraction counts
 * its IPs in SQL): a live count package with n left, or a live time package with n left of the day's allowance
 * (daily_limit 0 = unlimited); never a package frozen by an unpaid upgrade/merge order.
 */
const chargeableAnyMethod = (n: string, now: string, day: string) =>
  `state IN (1, 3) AND starts_at <= ${now} AND expires_at > ${now} AND ${RESERVATION_FREE}
   AND CASE billing_method
         WHEN 1 THEN remaining_count >= ${n}
         WHEN 2 THEN state = 1 AND (daily_limit = 0 OR (CASE WHEN usage_day = ${day} THEN used_today ELSE 0 END) + ${n} <= daily_limit)
         ELSE 0 END`;

/**
 * The draw of one call (docs/decisions/171, step 3; 182; 188): one INSERT … SELECT that writes the n IPs drawn for
 * `callId` into `extract_picks` as `chosen` rows and returns their ids (`ip_id`). The caller deletes the call's
 * scratch rows afterwards.
 * - The window: the first `window` candidates by distance from the random start. One seek gives them in that order
 *   (its two arms are disjoint ranges of rnd, so it holds no IP twice, and SQLite never runs the second arm when the
 *   first filled the window); several seeks (one per region key as province and as city) are one compound, each seek
 *   cut at `window`, sorted by distance (at most seeks × window rows, never the pool), an IP found by two seeks kept
 *   once.
 * - The choice: the window in random order, the first n taken. With dedup, an IP is probed against the caller's
 *   assignments only when the choice reaches it, so a call probes about n IPs, not the whole window. Only when the
 *   window holds fewer than n IPs the caller may have does the statement go on to the window of IPs the caller may
 *   have (its seeks probing every candidate, as before decision 188) for the rest.
 */
export function drawStatement(
  db: D1Database,
  f: CandidateFilter,
  start: number,
  callId: string,
  caller?: { apiKeyHash: string },
): D1PreparedStatement {
  const dist = `(rnd - ?11 + ${RND_SPACE}) % ${RND_SPACE}`;
  const windowOf = ({ seeks }: { seeks: string[] }) => {
    const [only] = seeks;
    if (seeks.length === 1 && only) return `SELECT id, ${dist} AS dist FROM (${only}) LIMIT ?10 + 0`;
    const cut = seeks.map((sql) => `SELECT * FROM (SELECT id, ${dist} AS dist FROM (${sql}) LIMIT ?10 + 0)`);
    return `SELECT DISTINCT id, dist FROM (${unionAll(cut)}) ORDER BY dist LIMIT ?10 + 0`;
  };
  const shuffled = (windowSql: string) => `(SELECT id, dist FROM (${windowSql}) ORDER BY random() LIMIT ?10 + 0) AS w`;
  const user = caller ? callerUserSql('?7') : '?7';
  const withCall = ({ binds }: { binds: unknown[] }) => [...binds, callId, f.limit];
  if (!dedups(f)) {
    const queries = candidateQueries(f, start, caller);
    return db
      .prepare(
        `INSERT INTO extract_picks (call_id, ip_id, dist, chosen)
         SELECT ?12, w.id, w.dist, 1 FROM ${shuffled(windowOf(queries))} LIMIT ?13 + 0
         RETURNING ip_id`,
      )
      .bind(...withCall(queries));
  }
  // The IPs the caller may have, first from the window in random order (probing each as the choice reaches it), then,
  // only if those were fewer than n, from the window of IPs the caller may have; an IP in both is taken once. The
  // compound's second term runs only when the first gave fewer than n rows.
  const open = candidateQueries(f, start, caller, { probe: false });
  const probed = candidateQueries(f, start, caller);
  return db
    .prepare(
      `INSERT INTO extract_picks (call_id, ip_id, dist, chosen)
       SELECT DISTINCT ?12, id, dist, 1 FROM (
         SELECT * FROM (SELECT w.id, w.dist FROM ${shuffled(windowOf(open))} WHERE NOT ${heldBefore(f, 'w.id', user)} LIMIT ?13 + 0)
         UNION ALL
         SELECT * FROM ${shuffled(windowOf(probed))}
       ) LIMIT ?13 + 0
       RETURNING ip_id`,
    )
    .bind(...withCall(open));
}

/**
 * The picks of a dedup call chosen by the customer's object (decision 243): the given IPs, in their order, that still
 * match the filter (pool, health, protocol, lifetime, carriers, excluded regions) and are not in a receipt of this
 * customer still in D1 that the mode excludes (dedup 1: handed out on this Shanghai day; dedup 2: still held at now).
 * The picks are the outer loop (CROSS JOIN: SQLite keeps that order) and each is read by its id: with a plain JOIN the
 * planner walked the pool's health index instead, every healthy IP against the list (0.6 s a call on a 60,000-IP pool,
 * 0.2 ms this way).
 */
function explicitPicksStatement(
  db: D1Database,
  f: CandidateFilter,
  callId: string,
  picks: number[],
  user: string,
  ref: string | number,
  now: number,
): D1PreparedStatement {
  const residual = ['i.pool = ?1', 'i.healthy = 1', 'i.expires_at >= ?2', '(i.protocols & ?3) != 0'];
  if (f.excludes.length) {
    residual.push(
      'i.province_key NOT IN (SELECT value FROM json_each(?6)) AND i.city_key NOT IN (SELECT value FROM json_each(?6))',
    );
  }
  if (f.carriers.length) residual.push('i.carrier IN (SELECT value FROM json_each(?7))');
  const inReceipts = `SELECT j.value ->> 0 FROM extract_receipts r, json_each(r.body, '$.ips') j
     WHERE r.user_id = ${user} AND (CASE ?8 WHEN 1 THEN r.body ->> 'day' = ?9 ELSE j.value ->> 5 > ?10 END)`;
  return db
    .prepare(
      `INSERT INTO extract_picks (call_id, ip_id, dist, chosen)
       SELECT ?4, p.value, p.key, 1 FROM json_each(?11) p CROSS JOIN proxy_ips i ON i.id = p.value
       WHERE ${residual.join(' AND ')}
         AND p.value NOT IN (${inReceipts})
         AND NOT ${heldBefore(f, 'p.value', user, { day: '?9', since: '?13' })}
       ORDER BY p.key LIMIT ?12 + 0
       RETURNING ip_id`,
    )
    .bind(
      f.pool,
      f.minExpiresAt,
      f.protocolBit,
      callId,
      ref,
      JSON.stringify(f.excludes),
      JSON.stringify(f.carriers),
      f.excludeDay !== null ? 1 : 2,
      f.excludeDay ?? '',
      f.excludeInUseAt ?? now,
      JSON.stringify(picks),
      f.limit,
      f.excludeInUseAt ?? (f.excludeDay ? shanghaiDayStart(f.excludeDay) : 0),
    );
}

/**
 * A window of candidates for the customer's object to choose a dedup call's IPs from (decision 243): the ids of the
 * first `window` matching IPs from a random start, in random order, without the dedup probe (the object knows the
 * customer's history; D1 does not).
 */
export async function candidateWindowIds(db: D1Database, f: CandidateFilter, start: number): Promise<number[]> {
  const open = candidateQueries({ ...f, excludeDay: null, excludeInUseAt: null }, start, undefined, { probe: false });
  const dist = `(rnd - ?11 + ${RND_SPACE}) % ${RND_SPACE}`;
  const cut = open.seeks.map((sql) => `SELECT * FROM (SELECT id, ${dist} AS dist FROM (${sql}) LIMIT ?10 + 0)`);
  const { results } = await db
    .prepare(
      `SELECT id FROM (SELECT DISTINCT id, dist FROM (${unionAll(cut)}) ORDER BY dist LIMIT ?10 + 0) ORDER BY random()`,
    )
    .bind(...open.binds)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

/** The rate counter of the one-batch extraction: every call counts (a refused one too), the answer is the count. */
const RATE_COUNT_ALL = (user: string) => `INSERT INTO extract_rate (user_id, window_sec, count)
         SELECT ${user}, ?2, 1 WHERE ${user} IS NOT NULL
         ON CONFLICT(user_id) DO UPDATE SET
           count = CASE WHEN excluded.window_sec > window_sec THEN 1 ELSE count + 1 END,
           window_sec = max(window_sec, excluded.window_sec)
         RETURNING user_id, count, (SELECT k.rate_limit FROM proxy_api_credentials k WHERE k.user_id = extract_rate.user_id) AS rate_limit`;

export interface OneBatchCall {
  second: number;
  callerIp: string;
  productType: number;
  packageId: number | null;
  now: number;
  day: string;
  protocol: string;
  /** The query string as logged. */
  query: string;
  requested: number;
  /** min_ttl in seconds: only a package whose IP lifetime is at least this long is charged. */
  minTtlSeconds: number;
  filter: CandidateFilter;
  /** The random start in [0, RND_SPACE); tests pass their own. */
  start?: number;
  /**
   * Decision 243: the IPs the customer's object chose for a dedup call (in order), instead of the draw. The batch
   * takes those still matching the filter and not in one of the customer's receipts still in D1 (calls not yet kept
   * by the object) that the dedup mode excludes.
   */
  picks?: number[];
  /**
   * Decision 253: the call's id, chosen by the caller of a dedup call and written into its receipt, so the Worker can
   * find what D1 charged when the customer's object breaks before it answers (`receiptOfCall`). A fresh id otherwise.
   */
  callId?: string;
}

export interface OneBatchOutcome {
  /** The caller's user id; null when the key is unknown or its account disabled (then nothing was counted). */
  userId: number | null;
  /** This call's count in the current second and the key's limit per second. */
  allowed: boolean;
  whiteListed: boolean;
  /** The caller's packages of the type (to name the refusal; read only when nothing was charged, else empty). */
  packages: PackageForExtract[];
  /** How many IPs the call drew (at most the requested number). */
  drawn: number;
  /** Set when the call was charged: the package, and the IPs handed out as recorded. */
  charged: { packageId: number; ips: AssignmentRow[]; receipt: Receipt } | null;
}

/**
 * The whole extraction in one batch, one round trip (docs/decisions/171, 184). D1 runs a batch as one serialised
 * transaction, so every statement sees the writes of the ones before it:
 * 1. the rate counter (every call of a known key counts; the owner, the count and the limit come back: no row for an
 *    unknown key or a disabled account);
 * 2. the draw (drawStatement): the candidate seeks of decision 081 and the random choice of n among the first
 *    `window` by distance from the random start, the n drawn written to `extract_picks`; `ORDER BY random()` sorts
 *    at most (seeks × window) rows, never the pool;
 * 3. the package choice: the soonest-expiring package that can give the drawn count, inserted into
 *    `extract_charges` only when the key is valid, the count within the limit, the caller's IP white-listed and at
 *    least one IP drawn; then the conditional charge of that package, and its state 3 when that used it up;
 * 4. the log (RETURNING the package: the sign the call was charged) and the assignments (RETURNING what the caller
 *    gets), each selecting from the `extract_charges` row, so they exist exactly when the charge happened; each
 *    assignment's lease notice for its exit's node is written by the table's trigger (migration 0023);
 * 5. the scratch rows deleted (the call's `extract_charges` row goes with its picks, by trigger).
 * Only a known key within its rate limit that was not charged costs a second read: the white-list check and the
 * packages that name the refusal (REFUSAL_FACTS).
 * Nothing about who may extract is cached: the key, the account status and the counter are read in the batch.
 */
export async function extractInOneBatch(
  db: D1Database,
  caller: ExtractCallerRef,
  r: OneBatchCall,
): Promise<OneBatchOutcome> {
  const f = r.filter;
  const start = r.start ?? Math.floor(Math.random() * RND_SPACE);
  const callId = r.callId ?? crypto.randomUUID();
  const byKey = 'apiKeyHash' in caller;
  // ?1 is the caller in every statement: the key (resolved in SQL) or the proven user id.
  const ref = byKey ? caller.apiKeyHash : caller.userId;
  const user = byKey ? callerUserSql('?1') : '?1';
  const limit = byKey ? '(SELECT k.rate_limit FROM proxy_api_credentials k WHERE k.user_id = r.user_id)' : '?3';
  const allowed = `EXISTS (SELECT 1 FROM extract_rate r WHERE r.user_id = ${user} AND r.count <= ${limit})`;
  const white = whiteListedSql(user, '?2', '?4');
  const draw = r.picks
    ? explicitPicksStatement(db, f, callId, r.picks, byKey ? callerUserSql('?5') : '?5', ref, r.now)
    : drawStatement(db, f, start, callId, byKey ? { apiKeyHash: caller.apiKeyHash } : undefined);
  const n = '(SELECT count(*) FROM extract_picks WHERE call_id = ?5 AND chosen = 1)';
  const chargedN = '(SELECT n FROM extract_charges WHERE call_id = ?1)';
  const charged = 'FROM extract_charges x WHERE x.call_id = ?1';
  const statements: D1PreparedStatement[] = [
    db.prepare(RATE_COUNT_ALL(user)).bind(ref, r.second),
    draw,
    db
      .prepare(
        `INSERT INTO extract_charges (call_id, user_id, package_id, n, duration_minutes)
         SELECT ?5, user_id, id, ${n}, ip_duration_minutes FROM proxy_packages
         WHERE user_id = ${user} AND product_type = ?6 AND (?7 = 0 OR id = ?7) AND ip_duration_minutes * 60 >= ?8
           AND ${n} > 0 AND ${allowed} AND ${white}
           AND ${chargeableAnyMethod(n, '?4', '?9')}
         ORDER BY expires_at, id LIMIT 1`,
      )
      .bind(
        ref,
        r.callerIp,
        byKey ? null : caller.rateLimit,
        r.now,
        callId,
        r.productType,
        r.packageId ?? 0,
        r.minTtlSeconds,
        r.day,
      ),
    db
      .prepare(
        `UPDATE proxy_packages SET
           remaining_count = CASE billing_method WHEN 1 THEN remaining_count - ${chargedN} ELSE remaining_count END,
           used_today = CASE billing_method WHEN 2 THEN (CASE WHEN usage_day = ?3 THEN used_today ELSE 0 END) + ${chargedN}
                        ELSE used_today END,
           usage_day = CASE billing_method WHEN 2 THEN ?3 ELSE usage_day END,
           updated_at = ?2
         WHERE id = (SELECT package_id FROM extract_charges WHERE call_id = ?1)
           AND ${chargeableAnyMethod(chargedN, '?2', '?3')}`,
      )
      .bind(callId, r.now, r.day),
    // A count package the charge used up becomes state 3, in its own statement: `state` is in three indexes of
    // proxy_packages, and an UPDATE that sets a column rewrites its index entries even when the value stays the same.
    db
      .prepare(
        `UPDATE proxy_packages SET state = 3
         WHERE id = (SELECT package_id FROM extract_charges WHERE call_id = ?1)
           AND billing_method = 1 AND remaining_count = 0 AND state = 1`,
      )
      .bind(callId),
    db
      .prepare(
        `INSERT INTO extract_receipts (user_id, created_at, body)
         SELECT x.user_id, ?2, json_object('package', x.package_id, 'type', ?3, 'clientIp', ?4, 'requested', ?5,
           'query', ?6, 'protocol', ?7, 'day', ?8, 'call', ?9,
           'ips', (SELECT json_group_array(json_array(i.id, i.ip, i.port,
                     CASE WHEN i.province = i.city THEN i.province ELSE i.province || i.city END, i.carrier,
                     min(i.expires_at, ?2 + x.duration_minutes * 60000), i.node_id))
                   FROM extract_picks p JOIN proxy_ips i ON i.id = p.ip_id WHERE p.call_id = x.call_id AND p.chosen = 1))
         ${charged}
         RETURNING id, user_id, created_at, body`,
      )
      .bind(callId, r.now, r.productType, r.callerIp, r.requested, r.query, r.protocol, r.day, r.callId ?? null),
    db.prepare('DELETE FROM extract_picks WHERE call_id = ?1').bind(callId),
  ];
  const results = await db.batch<Record<string, unknown>>(statements);
  const at = (i: number) => results[i < 0 ? results.length + i : i]?.results ?? [];
  // A known key's account always gets its counter row back; none means an unknown key or a disabled account.
  const counted = at(0)[0];
  const owner = byKey ? counted : { user_id: caller.userId, rate_limit: caller.rateLimit };
  const count = counted?.count as number | undefined;
  const userId = owner ? (owner.user_id as number) : null;
  const allowedNow = owner !== undefined && count !== undefined && count <= (owner.rate_limit as number);
  const receiptRow = at(-2)[0];
  const receipt: Receipt | undefined = receiptRow
    ? {
        id: receiptRow.id as number,
        userId: receiptRow.user_id as number,
        createdAt: receiptRow.created_at as number,
        body: JSON.parse(receiptRow.body as string) as ReceiptBody,
      }
    : undefined;
  const chargedPackage = receipt?.body.package;
  const chargeChanges = results[results.length - 4]?.meta.changes ?? 0;
  if ((chargedPackage !== undefined) !== (chargeChanges === 1)) {
    throw new Error('extraction batch: the package choice and the charge disagree');
  }
  const drawn = at(1).length;
  if (chargedPackage !== undefined) {
    return {
      userId,
      allowed: allowedNow,
      whiteListed: true,
      packages: [],
      drawn,
      charged: {
        packageId: chargedPackage,
        ips: receipt
          ? receiptIps({ body: { ...receipt.body, ips: sample(receipt.body.ips, Number.POSITIVE_INFINITY) } })
          : [],
        receipt: receipt as Receipt,
      },
    };
  }
  // Not charged: an unknown key or a call over the limit is named without reading more; anything else reads the
  // white list and the packages.
  const facts =
    userId === null || !allowedNow
      ? { whiteListed: false, packages: [] }
      : await refusalFacts(db, userId, r.callerIp, r.now, r.productType, r.packageId);
  return { userId, allowed: allowedNow, ...facts, drawn, charged: null };
}

/** What names a refusal (REFUSAL_FACTS): whether the calling IP is white-listed, and the caller's packages of the type. */
export async function refusalFacts(
  db: D1Database,
  userId: number,
  callerIp: string,
  now: number,
  productType: number,
  packageId: number | null,
): Promise<{ whiteListed: boolean; packages: PackageForExtract[] }> {
  const { results } = await db
    .prepare(REFUSAL_FACTS)
    .bind(userId, callerIp, now, productType, packageId ?? 0)
    .all<Record<string, unknown>>();
  return {
    whiteListed: results[0]?.white === 1,
    packages: results.filter((p) => p.id !== null).map(packageRow),
  };
}

/** Receipts written before `before` and still in D1 (their batch to the customer's object was lost), oldest first. */
export async function receiptsBefore(db: D1Database, before: number, limit: number): Promise<Receipt[]> {
  const { results } = await db
    .prepare(
      'SELECT id, user_id, created_at, body FROM extract_receipts WHERE created_at < ?1 ORDER BY id LIMIT ?2 + 0',
    )
    .bind(before, limit)
    .all<ReceiptRow>();
  return results.map(toReceipt);
}

/** The receipt of one customer's call by the id its caller gave it (decision 253), null when D1 holds none. */
export async function receiptOfCall(db: D1Database, userId: number, callId: string): Promise<Receipt | null> {
  const row = await db
    .prepare(
      `SELECT id, user_id, created_at, body FROM extract_receipts WHERE user_id = ?1 AND body ->> '$.call' = ?2 LIMIT 1`,
    )
    .bind(userId, callId)
    .first<ReceiptRow>();
  return row ? toReceipt(row) : null;
}

/**
 * One customer's receipts still in D1 (decision 247: charged calls its object has not kept yet), oldest first, at most
 * `limit`. The table holds only the calls of the last moments (the object deletes what it keeps), so the scan is short.
 */
export async function receiptsOfUser(db: D1Database, userId: number, limit: number): Promise<Receipt[]> {
  const { results } = await db
    .prepare('SELECT id, user_id, created_at, body FROM extract_receipts WHERE user_id = ?1 ORDER BY id LIMIT ?2 + 0')
    .bind(userId, limit)
    .all<ReceiptRow>();
  return results.map(toReceipt);
}

interface ReceiptRow {
  id: number;
  user_id: number;
  created_at: number;
  body: string;
}

const toReceipt = (r: ReceiptRow): Receipt => ({
  id: r.id,
  userId: r.user_id,
  createdAt: r.created_at,
  body: JSON.parse(r.body) as ReceiptBody,
});

/** The user an extraction key hash belongs to (any account status), or null. */
export async function userIdOfKeyHash(db: D1Database, apiKeyHash: string): Promise<number | null> {
  const row = await db
    .prepare('SELECT user_id FROM proxy_api_credentials WHERE api_key = ?1')
    .bind(apiKeyHash)
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}

/** Count a refused call of a known customer in its hour's counter (its log is kept by the customer's object). */
export async function countRefusalHour(db: D1Database, userId: number, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO extract_hour_counts (user_id, hour_start, calls, ips) VALUES (?1, (?2 / 3600000) * 3600000, 1, 0)
       ON CONFLICT (user_id, hour_start) DO UPDATE SET calls = calls + 1`,
    )
    .bind(userId, Math.trunc(now))
    .run();
}

/** Delete receipts their customer's object has kept (decision 243), in one statement. */
export async function deleteReceipts(db: D1Database, ids: number[]): Promise<void> {
  await db
    .prepare('DELETE FROM extract_receipts WHERE id IN (SELECT value FROM json_each(?1))')
    .bind(JSON.stringify(ids))
    .run();
}
