// Every hot query plans without a full scan of a large table (docs/decisions/081). The statements are the real ones:
// each hot db function runs against a recording D1 that keeps the SQL and bindings it is given, then each recorded
// statement is planned with EXPLAIN QUERY PLAN on the migrated database.
import { describe, expect, it } from 'vitest';
import { findByApiKeyHash } from '../../src/server/db/credentials';
import {
  type CandidateFilter,
  candidateQueries,
  countKeyFailure,
  type ExtractCallerRef,
  extractInOneBatch,
  refusalFacts,
} from '../../src/server/db/extract';
import { countLiveFixed } from '../../src/server/db/fixed';
import { searchArticles } from '../../src/server/db/help';
import { countUnreadNotices, listUserNotices } from '../../src/server/db/notices';
import { countUnpaid, listBills } from '../../src/server/db/orders';
import { livePackages } from '../../src/server/db/packages';
import { extractChart, listAssignments, listExtractLogs } from '../../src/server/db/records';
import { findSessionWithUser } from '../../src/server/db/sessions';
import { countLiveWhiteList, listWhiteList } from '../../src/server/db/white-list';
import { queryPlan, type RecordedStatement, recordingDb, statementBytecode, tableRootPage } from '../helpers/delivery';

/** Tables that grow with customers, pool or history: a plan may only SEARCH them through an index. */
const LARGE_TABLES = [
  'users',
  'sessions',
  'proxy_ips',
  'proxy_packages',
  'proxy_api_credentials',
  'extract_logs',
  'extract_hour_counts',
  'ip_assignments',
  'extract_rate',
  'extract_key_failures',
  'white_list',
  'orders',
  'order_items',
  'notice_reads',
  'fixed_allocations',
  'usage_hourly',
  'usage_daily',
  'node_usage',
  'extract_picks',
  'extract_charges',
];

/** Cross-customer indexes that serve the sweeps; a per-customer hot query answered through one reads everyone's rows. */
const SWEEP_INDEXES = [
  'proxy_packages_expiry',
  'orders_unpaid',
  'white_list_enabled',
  'extract_logs_time',
  'ip_assignments_time',
  'sessions_expires',
];

const NOW = 1_800_000_000_000;
const DAY = '2027-01-15';
const U = 7;
const filter = (f: Partial<CandidateFilter> = {}): CandidateFilter => ({
  pool: 10,
  protocolBit: 1,
  minExpiresAt: NOW,
  regions: [],
  excludes: [],
  carriers: [],
  limit: 10,
  excludeDay: null,
  excludeInUseAt: null,
  userId: U,
  ...f,
});
/** The whole extraction in one batch (docs/decisions/171), by key or by a proven caller. */
const oneBatch =
  (
    f: Partial<CandidateFilter>,
    caller: ExtractCallerRef = { apiKeyHash: `h1:${'k'.repeat(64)}` },
    picks: number[] | undefined = undefined,
  ) =>
  (db: D1Database) =>
    extractInOneBatch(db, caller, {
      ...(picks ? { picks } : {}),
      second: NOW / 1000,
      callerIp: '192.0.2.1',
      productType: 10,
      packageId: null,
      now: NOW,
      day: DAY,
      protocol: 'http',
      query: '',
      requested: 10,
      minTtlSeconds: 0,
      filter: filter(f),
    });
/** The IPs a customer's object chose for a dedup call (decision 243), in its order. */
const PICKS = [5, 3, 9, 1];
/** A caller proven by an AES token: the user id is bound, not resolved from the key. */
const TOKEN_CALLER: ExtractCallerRef = { userId: U, rateLimit: 10 };
/** More region keys than index seeks: one read of the pool index with the regions as a residual condition. */
const MANY_REGIONS = ['上海', '天津', '重庆', '江苏', '浙江', '四川', '湖北', '湖南', '广东'];
const bill = { kind: 0, productType: 0, orderNo: '', from: 0, to: 0, page: 1, pageSize: 10 };

/** The hot queries by name. Add new hot paths here; the test plans every statement each one issues. */
const HOT_QUERIES: Record<string, (db: D1Database) => Promise<unknown>> = {
  'every signed-in request: the session with its account': (db) => findSessionWithUser(db, 'h'.repeat(64)),
  'extract: key lookup': (db) => findByApiKeyHash(db, `h1:${'k'.repeat(64)}`),
  'extract: wrong-key counter': (db) => countKeyFailure(db, '192.0.2.1', NOW, 60_000),
  'extract in one batch by key: draw, charge, log, assignments': oneBatch({}),
  'extract in one batch by key: dedup=1': oneBatch({ excludeDay: DAY }),
  'extract in one batch by key: dedup=2': oneBatch({ excludeInUseAt: NOW }),
  'extract in one batch by key: by region': oneBatch({ regions: ['广东'], carriers: ['电信'], excludes: ['东莞'] }),
  'extract in one batch by key: by region, dedup=1': oneBatch({ regions: ['广东'], excludeDay: DAY }),
  'extract in one batch by key: a long region list': oneBatch({ regions: MANY_REGIONS, excludeDay: DAY }),
  'extract in one batch by token caller': oneBatch({}, TOKEN_CALLER),
  'extract: what names a refusal (white list, packages)': (db) => refusalFacts(db, U, '192.0.2.1', NOW, 10, null),
  'extract in one batch by token caller: dedup=1': oneBatch({ excludeDay: DAY }, TOKEN_CALLER),
  'a dedup call with the picks of the customer object: dedup=1': oneBatch({ excludeDay: DAY }, undefined, PICKS),
  'a dedup call with the picks of the customer object: dedup=2': oneBatch({ excludeInUseAt: NOW }, undefined, PICKS),
  'extract in one batch by token caller: dedup=2': oneBatch({ excludeInUseAt: NOW }, TOKEN_CALLER),
  'extract in one batch by token caller: by region': oneBatch(
    { regions: ['广东', '深圳'], carriers: ['电信'], excludes: ['东莞'] },
    TOKEN_CALLER,
  ),
  'extract in one batch by token caller: a long region list': oneBatch(
    { regions: MANY_REGIONS, excludeDay: DAY },
    TOKEN_CALLER,
  ),
  'records: extraction calls': (db) =>
    listExtractLogs(db, { userId: U, from: NOW - 180 * 86_400_000, to: NOW + 1, now: NOW, offset: 0, limit: 10 }),
  'records: charts by hour': (db) =>
    extractChart(db, { userId: U, from: NOW - 86_400_000, to: NOW, now: NOW, bucket: 'hour' }),
  'records: charts by day': (db) =>
    extractChart(db, { userId: U, from: NOW - 30 * 86_400_000, to: NOW + 1, now: NOW, bucket: 'day' }),
  'records: IPs handed out': (db) =>
    listAssignments(db, { userId: U, productType: null, liveAt: null, ip: null, offset: 0, limit: 10 }),
  'records: live IPs of a type': (db) =>
    listAssignments(db, { userId: U, productType: 10, liveAt: NOW, ip: null, offset: 0, limit: 10 }),
  'records: one IP': (db) =>
    listAssignments(db, { userId: U, productType: null, liveAt: null, ip: '203.0.113.1', offset: 0, limit: 10 }),
  'bills: all': (db) => listBills(db, U, { ...bill, state: 0 }, NOW),
  'bills: unpaid': (db) => listBills(db, U, { ...bill, state: 1 }, NOW),
  'bills: closed': (db) => listBills(db, U, { ...bill, state: 3 }, NOW),
  'bills: unpaid count': (db) => countUnpaid(db, U, NOW),
  'meal counts: live packages': (db) => livePackages(db, U, NOW),
  'meal counts: live fixed IPs': (db) => countLiveFixed(db, U, NOW),
  'white list: list': (db) => listWhiteList(db, U),
  'white list: live count': (db) => countLiveWhiteList(db, U, NOW),
  'notices: unread count': (db) => countUnreadNotices(db, U, NOW),
  'notices: list': (db) => listUserNotices(db, U, NOW, 10),
  'help: search (FTS5, trigram)': (db) => searchArticles(db, { long: ['提取密钥'], short: [] }, 10, 0),
  'help: search (FTS5 with a short word)': (db) => searchArticles(db, { long: ['提取密钥'], short: ['IP'] }, 10, 0),
  'help: search (short words only)': (db) => searchArticles(db, { long: [], short: ['IP'] }, 10, 0),
};

/**
 * Plan lines that scan a large table from end to end, that read one through a sweep index, and, for statements reading the pool, any sort through a
 * temporary B-tree (ORDER BY random() over the matching pool plans as an index search plus such a sort). The one sort
 * allowed is the draw's over a window the statement bounds itself (docs/decisions/182): `(... LIMIT ?n) ORDER BY
 * random()` (the limit may be written `?n + 0`, docs/decisions/191), where the sort's own level of the plan reads that subquery and no pool table.
 */
async function fullScans(r: RecordedStatement): Promise<string[]> {
  const results = await queryPlan(r.sql, r.binds);
  const readsPool = /FROM proxy_ips\b/.test(r.sql);
  const boundedDraw = /LIMIT \?\d+(?: \+ 0)?\)\s+ORDER BY random\(\)/.test(r.sql);
  const sortsBoundedWindow = (sort: { id: number; parent: number }) =>
    boundedDraw &&
    results.every((x) => x.parent !== sort.parent || x.id === sort.id || !/\bproxy_ips\b/.test(x.detail));
  return results
    .filter((x) => {
      const d = x.detail;
      const m = /^SCAN (\w+)/.exec(d);
      if (m !== null && LARGE_TABLES.includes(m[1] as string)) return true;
      if (SWEEP_INDEXES.some((i) => d.includes(`INDEX ${i} `))) return true;
      return readsPool && /^USE TEMP B-TREE FOR (ORDER BY|RIGHT PART OF ORDER BY)/.test(d) && !sortsBoundedWindow(x);
    })
    .map((x) => x.detail);
}

describe('query plans of the hot paths', () => {
  for (const [name, run] of Object.entries(HOT_QUERIES)) {
    it(`${name}: no full scan of a large table`, async () => {
      const { db, seen } = recordingDb();
      await run(db);
      expect(seen.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const r of seen) {
        for (const line of await fullScans(r))
          problems.push(`${line}\n  in: ${r.sql.replace(/\s+/g, ' ').slice(0, 300)}`);
      }
      expect(problems).toEqual([]);
    });
  }

  it('flags a full scan and a sort of the pool (the check itself can fail)', async () => {
    expect(await fullScans({ sql: 'SELECT count(*) FROM extract_logs WHERE query = ?', binds: ['x'] })).toEqual([
      expect.stringMatching(/^SCAN extract_logs/),
    ]);
    // the candidate query before docs/decisions/081
    const sortAll =
      'SELECT id FROM proxy_ips WHERE pool = ?1 AND healthy = 1 AND expires_at >= ?2 ORDER BY random() LIMIT 10';
    expect(await fullScans({ sql: sortAll, binds: [10, 0] })).toEqual([expect.stringMatching(/^USE TEMP B-TREE/)]);
    // a random order over a subquery is allowed only when the subquery bounds its rows (the draw's window)
    const seek = (range: string) =>
      `SELECT * FROM (SELECT id, rnd FROM proxy_ips INDEXED BY proxy_ips_rnd WHERE pool = ?1 AND healthy = 1 AND ${range} ORDER BY rnd LIMIT ?3)`;
    const window = `SELECT id FROM (${seek('rnd >= ?2')} UNION ALL ${seek('rnd < ?2')}`;
    expect(await fullScans({ sql: `${window} LIMIT ?3) ORDER BY random() LIMIT 10`, binds: [10, 5, 60] })).toEqual([]);
    expect(await fullScans({ sql: `${window}) ORDER BY random() LIMIT 10`, binds: [10, 5, 60] })).toEqual([
      expect.stringMatching(/^USE TEMP B-TREE/),
    ]);
  });

  // docs/decisions/186: a seek checks each candidate's expiry and protocol in its index, so no candidate costs a read
  // of its proxy_ips row (a random page on a pool larger than the cache). Read from the statement's bytecode: the
  // table cursor may be opened (SQLite defers the seek to it) but no column or row of it is read.
  for (const [name, f] of [
    ['the whole pool', filter()],
    ['one region', filter({ regions: ['广东'] })],
  ] as const) {
    it(`the candidate seek over ${name} reads its index only, never a pool row`, async () => {
      const { seeks, binds } = candidateQueries(f, 12345);
      for (const sql of seeks) {
        expect(await tableReads(sql, binds)).toEqual([]);
      }
    });
  }

  // A dedup call's picks (decision 243) are a short list from the customer's object: the statement must read each by
  // its id, not walk the pool's health index against the list (0.6 s a call on a 60,000-IP pool before the fix).
  it("a dedup call reads the object's picks by their ids, never a range of the pool", async () => {
    for (const f of [{ excludeDay: DAY }, { excludeInUseAt: NOW }]) {
      const { db, seen } = recordingDb();
      await oneBatch(f, undefined, PICKS)(db);
      const picksSql = seen.filter((r) => /json_each\(\?11\) p\b/.test(r.sql));
      expect(picksSql).toHaveLength(1);
      for (const r of picksSql) expect(await poolReadsNotById(r)).toEqual([]);
    }
  });

  it('sees a pick statement that walks the pool (the check itself can fail)', async () => {
    const joined =
      'SELECT p.value FROM json_each(?1) p JOIN proxy_ips i ON i.id = p.value WHERE i.pool = 10 AND i.healthy = 1 AND i.expires_at >= ?2';
    expect(await poolReadsNotById({ sql: joined, binds: ['[1,2]', 0] })).not.toEqual([]);
  });

  it('sees a seek that reads pool rows (the check itself can fail)', async () => {
    const rowSeek =
      'SELECT id, rnd FROM proxy_ips INDEXED BY proxy_ips_rnd WHERE pool = ?1 AND healthy = 1 AND carrier = ?2 ORDER BY rnd LIMIT 60';
    expect(await tableReads(rowSeek, [10, '电信'])).not.toEqual([]);
  });
});

/** Plan lines of a statement that read the pool (alias i) other than by its primary key. */
async function poolReadsNotById(r: RecordedStatement): Promise<string[]> {
  return (await queryPlan(r.sql, r.binds))
    .map((x) => x.detail)
    .filter((d) => /^(SCAN|SEARCH) i\b/.test(d) && !d.includes('INTEGER PRIMARY KEY'));
}

/** The bytecode steps of `sql` that read a column or the row of a proxy_ips table cursor (not an index cursor). */
async function tableReads(sql: string, binds: unknown[]): Promise<string[]> {
  const root = await tableRootPage('proxy_ips');
  const results = await statementBytecode(sql, binds);
  const tableCursors = new Set(results.filter((r) => r.opcode === 'OpenRead' && r.p2 === root).map((r) => r.p1));
  return results
    .filter(
      (r) => tableCursors.has(r.p1) && ['Column', 'SeekRowid', 'NotExists', 'Rowid', 'NotFound'].includes(r.opcode),
    )
    .map((r) => `${r.addr} ${r.opcode} ${r.p1}`);
}
