// The whole delivery path end to end (issue 26 "Done when"): a customer buys a package (the WeChat Pay simulator),
// extracts, connects through the reference node, sees the usage on the IP records; the day is archived by the real
// hourly job; the record still shows, now from the R2 archive; the operator's trace finds the lease in the archive.
// The built Worker under `wrangler dev` (fresh local state, --test-scheduled), the node in this process.
// "The day is archived": the hourly job runs "nine days later" through wrangler dev's local scheduled endpoint
// (`/cdn-cgi/local/scheduled?cron=…&time=<ms>`; `/__scheduled` passes no time) and takes its `now` from the
// controller's scheduledTime, so the customer's object, the node's object and D1 all see a day past the 7-day hot
// window and the usage rows' extra day: the job, the archive and every read are the real ones, only the clock is not
// waited for (decision 248).
// Alone: `DELIVERY_E2E_PORT=8797 node --test node/test/e2e/delivery.e2e.ts` (needs dist/: `npm run build`).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { ProxyNode } from '../../src/node.ts';
import { connectGet, httpGet, sleep, startTarget, until } from '../helpers.ts';
import { freshPortal, localNodeConfig, type Portal } from './harness.ts';

const PORT = Number(process.env.DELIVERY_E2E_PORT ?? 8797);
const EXIT_PORT = Number(process.env.DELIVERY_E2E_EXIT_PORT ?? 28030);
const BASE = `http://127.0.0.1:${PORT}`;
const DAY_MS = 86_400_000;
const SH_MS = 8 * 3_600_000;
const PHONE = '13700137001';
const KEY = 'e2ec13700137001key00000000000abc';
const SESSION = 'delivery-e2e-customer-session-0123456789';
const OPERATOR = 'delivery-e2e-operator-session-0123456789';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** How much later the archive job runs: past the 7-day hot window and the usage rows' extra day. */
const LATER_MS = 9 * DAY_MS;

/** One /api call as the customer (cookie `token`) or the operator (`admin_token`); fails loudly on E. */
async function api<T>(A: string, P: unknown, who: 'customer' | 'operator' = 'customer'): Promise<T> {
  const res = await fetch(`${BASE}/api`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'source-type': '1',
      cookie: who === 'customer' ? `token=${SESSION}` : `admin_token=${OPERATOR}`,
    },
    body: JSON.stringify({ A, P }),
  });
  const body = (await res.json()) as { E?: string; P?: T };
  assert.equal(body.E, undefined, `${A}: ${body.E}`);
  return body.P as T;
}

type Lease = { id: number; ip: string; port: number; packageId: number; assignedAt: number; bytes: number };
const ipRecords = () => api<{ total: number; list: Lease[] }>('ProxyLog.GetList', { page: 1, pageSize: 20 });
const beijing = (ms: number) => new Date(ms + SH_MS).toISOString().slice(0, 19).replace('T', ' ');

describe('delivery end to end: buy, extract, connect, usage, archive, records and trace', { timeout: 600_000 }, () => {
  let node: ProxyNode;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let userId = 0;
  let packageId = 0;
  let leased: { ip: string; port: number };
  let lease: Lease;

  let portal: Portal;
  const d1: Portal['d1'] = (sql) => portal.d1(sql);

  before(async () => {
    portal = await freshPortal('delivery-e2e', PORT);
    // A new customer without any package: verified, API opened, 127.0.0.1 white-listed, a key, a session; and an
    // operator of role support with an active console session.
    const now = Date.now();
    await portal.d1File(
      'delivery-e2e',
      `INSERT INTO users (phone, status, is_identity_auth, proxy_api_opened, created_at, updated_at)
  VALUES ('${PHONE}', 1, 1, 1, ${now}, ${now});
INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, created_at, updated_at)
  SELECT id, '${KEY}', 'e2caeskey0000001', 'e2caesiv00000001', ${now}, ${now} FROM users WHERE phone = '${PHONE}';
INSERT INTO white_list (user_id, ip, remark, enabled, expires_at, created_at, updated_at)
  SELECT id, '127.0.0.1', 'e2e', 1, 0, ${now}, ${now} FROM users WHERE phone = '${PHONE}';
INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at, ip, user_agent)
  SELECT '${sha(SESSION)}', id, ${now}, ${now}, ${now + DAY_MS}, '127.0.0.1', 'e2e' FROM users WHERE phone = '${PHONE}';
INSERT INTO operators (username, display_name, role, password_hash, created_at, updated_at)
  VALUES ('delivery_e2e', '端到端客服', 'support', 'x', ${now}, ${now});
INSERT INTO operator_sessions (token_hash, operator_id, stage, created_at, last_seen_at, expires_at, ip)
  SELECT '${sha(OPERATOR)}', id, 'active', ${now}, ${now}, ${now + DAY_MS}, '127.0.0.1' FROM operators
  WHERE username = 'delivery_e2e';
`,
    );
    const [u] = await d1<{ id: number }>(`SELECT id FROM users WHERE phone = '${PHONE}'`);
    userId = u?.id ?? 0;
    await portal.start();
    target = await startTarget('127.0.0.1');
    node = new ProxyNode(
      localNodeConfig(portal, { name: 'delivery-e2e', exitPort: EXIT_PORT, targetPort: target.port }),
      createLogger('error'),
    );
    await node.start();
  });

  after(async () => {
    await node?.stop();
    await portal?.stop();
    await target?.close();
  });

  test('a customer without a package buys one and pays in the simulator; the package is theirs', async () => {
    const before = await fetch(`${BASE}/extract?key=${KEY}&num=1&format=json`).then((r) => r.json());
    assert.notEqual((before as { code: number }).code, 0, 'no package yet: the extraction is refused');
    const order = await api<{ orderNo: string; codeUrl: string }>('PayOrder.BuyProxy', { mealId: 101010, units: 1 });
    const outTradeNo = new URL(order.codeUrl, BASE).searchParams.get('out_trade_no') ?? '';
    const paid = await fetch(`${BASE}/dev/wechatpay/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ out_trade_no: outTradeNo }),
    });
    assert.match(await paid.text(), /商户应答 HTTP 204/);
    const [pkg] = await d1<{ id: number }>(`SELECT id FROM proxy_packages WHERE user_id = ${userId} AND state = 1`);
    assert.ok(pkg, 'a live package');
    packageId = pkg.id;
  });

  test('the customer extracts and connects through the node; the target sees the exit address', async () => {
    const r = await fetch(`${BASE}/extract?key=${KEY}&num=1&format=json`);
    const body = (await r.json()) as { code: number; msg: string; data?: { list: { ip: string; port: number }[] } };
    assert.equal(body.code, 0, body.msg);
    leased = body.data?.list[0] as { ip: string; port: number };
    assert.equal(leased.port, EXIT_PORT);
    const proxy = { host: leased.ip, port: leased.port };
    await until(async () => (await httpGet(proxy, `http://127.0.0.1:${target.port}/`)).status === 200, 10_000, 'lease');
    const big = await connectGet(proxy, { host: '127.0.0.1', port: target.port, path: '/big/300000' });
    assert.equal(big.connect.status, 200);
  });

  test("the usage shows on the customer's IP records, attributed to the bought package's lease", async () => {
    await sleep(100);
    node.cut();
    await node.reporter.flush(true);
    assert.equal(node.reporter.pendingFiles().length, 0);
    const records = await ipRecords();
    assert.equal(records.total, 1);
    lease = records.list[0] as Lease;
    assert.equal(lease.ip, leased.ip);
    assert.equal(lease.packageId, packageId);
    assert.ok(lease.bytes > 300_000, `bytes on the record: ${lease.bytes}`);
  });

  test('the day is archived: the hourly job moves it from the objects and D1 to R2, and the record still shows from the archive', async () => {
    // The job runs nine days later (the only step that is not the real system: the clock).
    const r = await fetch(
      `${BASE}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('7 * * * *')}&time=${Date.now() + LATER_MS}`,
    );
    assert.equal(r.status, 200);
    const left = await d1<{ n: number }>(`SELECT count(*) AS n FROM node_usage WHERE user_id = ${userId}`);
    assert.equal(left[0]?.n, 0, 'the usage left D1');
    const objects = await d1<{ kind: string; rows: number }>(
      `SELECT kind, sum(rows) AS rows FROM archive_objects WHERE owner = ${userId} GROUP BY kind ORDER BY kind`,
    );
    // The calls (the refused one before the package, and the charged one), the lease from the customer's object, and
    // its usage from the node object (decision 249).
    assert.deepEqual(
      objects.map((o) => o.kind),
      ['extract', 'lease', 'usage'],
    );
    assert.deepEqual(
      objects.slice(0, 2).map((o) => o.rows),
      [2, 1],
    );
    const records = await ipRecords();
    assert.equal(records.total, 1);
    const archived = records.list[0] as Lease;
    assert.ok(archived.id < 0, `an archived object lease has a negative id: ${archived.id}`);
    assert.equal(archived.ip, leased.ip);
    assert.equal(archived.packageId, packageId);
    assert.equal(archived.assignedAt, lease.assignedAt);
    assert.equal(archived.bytes, lease.bytes, 'the same bytes, now read from the archive');
    lease = archived;
  });

  test("the operator's trace finds the lease in the archive: the customer, masked, and the client address", async () => {
    const answer = await api<{
      holders: { leaseId: number; userId: number; phone: string; clients: string[]; from: string; bytes: number }[];
    }>('Admin.ExitTrace', { ip: leased.ip, at: beijing(lease.assignedAt + 60_000) }, 'operator');
    const h = answer.holders.find((x) => x.leaseId === lease.id);
    assert.ok(h, `the lease among ${JSON.stringify(answer.holders)}`);
    assert.equal(h.userId, userId);
    assert.equal(h.from, 'archive');
    assert.equal(h.phone, '137****7001');
    assert.deepEqual(h.clients, ['127.0.0.1']);
    assert.equal(h.bytes, lease.bytes);
    const audit = await d1<{ n: number }>(
      `SELECT count(*) AS n FROM audit_log WHERE action = 'Admin.ExitTrace' AND target = 'ip:${leased.ip}'`,
    );
    assert.equal(audit[0]?.n, 1, 'the lookup is audited');
  });
});
