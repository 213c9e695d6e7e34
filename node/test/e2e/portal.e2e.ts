// End to end with the real portal: the built Worker under `wrangler dev` with a fresh local state (migrations and
// demo data, no demo pool), the reference node in this process registering exits 127.0.0.2-127.0.0.9 through
// /node/v2, and a local target that reports the source address it sees. Run by `npm test` (scripts/test.mjs) after
// the build; alone: `node --test node/test/e2e/portal.e2e.ts` (NODE_E2E_PORT, default 8798; needs dist/).
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { ProxyNode } from '../../src/node.ts';
import { createPortalClient, type PortalClient } from '../../src/portal.ts';
import { connectGet, httpGet, sleep, socksGet, startTarget, until } from '../helpers.ts';
import { freshPortal, localNodeConfig, type Portal } from './harness.ts';

const PORT = Number(process.env.NODE_E2E_PORT ?? 8798);
const EXIT_PORT = Number(process.env.NODE_E2E_EXIT_PORT ?? 28010);
const BASE = `http://127.0.0.1:${PORT}`;
const KEY_A = 'demo13800138000key0000000000abcd';
const ACCOUNT_A: [string, string] = ['demo13800138000', 'demoproxy0000pass'];
const KEY_B = 'e2eb13900139000key000000000000ab';
const ACCOUNT_B: [string, string] = ['e2eb13900139000', 'e2ebpassword0000'];
const GRACE_MS = 4000;
/**
 * A second dynamic package of the demo user A, ending last of A's (so an extraction without `package=` never draws
 * on it): the expiry test extracts one IP from it and brings its end forward.
 */
const ENDING_PACKAGE = '短效动态IP · 按量 10个 · 5分钟（到期测试）';

let portal: Portal;
const d1: Portal['d1'] = (sql) => portal.d1(sql);

/**
 * The bytes the nodes reported for customer A's traffic (out), as D1 counts them: the hourly totals of the rows kept by
 * the node objects (decision 249) and the rows D1 keeps itself.
 */
async function reportedBytesOfA(): Promise<number> {
  const a = `(SELECT id FROM users WHERE phone = '13800138000')`;
  const [x] = await d1<{ b: number }>(
    `SELECT (SELECT coalesce(sum(bytes_out), 0) FROM node_usage_hours WHERE user_id = ${a})
          + (SELECT coalesce(sum(bytes_out), 0) FROM node_usage WHERE user_id = ${a}) AS b`,
  );
  return x?.b ?? 0;
}
/**
 * The refusals the node objects keep (decision 250), read from the objects' SQLite files in the portal's local state
 * (read-only; wrangler dev keeps them in WAL mode, so a reader sees every committed row).
 */
function nodeObjectRefusals(): { code: string; client_ip: string; user_id: number }[] {
  const dir = resolve(portal.state, 'v3/do');
  const files = existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.sqlite'))
    : [];
  const out: { code: string; client_ip: string; user_id: number }[] = [];
  for (const f of files) {
    const db = new DatabaseSync(resolve(dir, f), { readOnly: true });
    try {
      const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refusals'`).get();
      if (has) {
        out.push(
          ...(db.prepare('SELECT code, client_ip, user_id FROM refusals ORDER BY code, client_ip').all() as {
            code: string;
            client_ip: string;
            user_id: number;
          }[]),
        );
      }
    } finally {
      db.close();
    }
  }
  return out;
}
const startPortal = () => portal.start();
const stopPortal = () => portal.stop();

type Proxy = { ip: string; port: number };
async function extract(key: string, num: number, extra = ''): Promise<Proxy[]> {
  const r = await fetch(`${BASE}/extract?key=${key}&num=${num}&format=json${extra}`);
  const body = (await r.json()) as { code: number; msg: string; data?: { list: Proxy[] } };
  assert.equal(body.code, 0, `extract: ${body.msg}`);
  return body.data?.list ?? [];
}

/** A portal client that can lose the answer of the next usage push (the portal stored it; the node never hears). */
function lossyClient(inner: PortalClient) {
  const state = { loseNextUsageAnswer: false, usagePushes: 0 };
  const client: PortalClient = {
    async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
      const answer = await inner.call<T>(method, path, body);
      if (path === '/node/v2/usage') {
        state.usagePushes++;
        if (state.loseNextUsageAnswer) {
          state.loseNextUsageAnswer = false;
          throw new Error('answer lost');
        }
      }
      return answer;
    },
  };
  return { client, state };
}

describe('proxy node with the real portal', { timeout: 600_000 }, () => {
  let node: ProxyNode;
  /** The demo user's (ACCOUNT_A's) exclusive lease in the node's contract, once pulled. */
  const fixedOfA = () => {
    const a = [...node.store.users.values()].find((u) => u.username === ACCOUNT_A[0]);
    return [...node.store.leases.values()].find((l) => l.exclusive && a !== undefined && l.userId === a.userId);
  };
  let target: Awaited<ReturnType<typeof startTarget>>;
  let T: { host: string; port: number };
  let lossy: ReturnType<typeof lossyClient>;
  let config: ReturnType<typeof localNodeConfig>;
  let leasedA: Proxy[] = [];
  let leasedB: Proxy[] = [];
  /** The exit whose lease the expiry test ends. */
  let expired: Proxy | null = null;
  const liveA = () => leasedA.find((a) => a.ip !== expired?.ip) as Proxy;
  const proxyOf = (p: Proxy) => ({ host: p.ip, port: p.port });

  before(async () => {
    portal = await freshPortal('node-e2e', PORT);
    // A second customer B (13900139000): verified, API opened, white-listed 127.0.0.1 (needed to extract), a proxy
    // account and a dynamic package. Its key and password are written in plain, as rows from before migration 0029
    // are: B's journey also checks that such a row keeps working (docs/decisions/199, 200); A's are seeded hashed/sealed.
    const now = Date.now();
    await portal.d1File(
      'node-e2e',
      `UPDATE users SET is_identity_auth = 1, proxy_api_opened = 1 WHERE phone = '13900139000';
INSERT INTO proxy_api_credentials (user_id, api_key, aes_key, aes_iv, proxy_username, proxy_password, created_at, updated_at)
  SELECT id, '${KEY_B}', 'e2eaeskey0000001', 'e2eaesiv00000001', '${ACCOUNT_B[0]}', '${ACCOUNT_B[1]}', ${now}, ${now}
  FROM users WHERE phone = '13900139000';
INSERT INTO white_list (user_id, ip, remark, enabled, expires_at, created_at, updated_at)
  SELECT id, '127.0.0.1', 'e2e', 1, 0, ${now}, ${now} FROM users WHERE phone = '13900139000';
INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count, remaining_count,
  starts_at, expires_at, state, source, created_at, updated_at)
  SELECT id, 10, 1, '短效动态IP · 按量 100个 · 5分钟', 5, 100, 100, ${now - 60_000}, ${now + 30 * 86_400_000}, 1, 'demo',
  ${now}, ${now} FROM users WHERE phone = '13900139000';
INSERT INTO proxy_packages (user_id, product_type, billing_method, name, ip_duration_minutes, total_count, remaining_count,
  starts_at, expires_at, state, source, created_at, updated_at)
  SELECT id, 10, 1, '${ENDING_PACKAGE}', 5, 10, 10, ${now - 60_000}, ${now + 3650 * 86_400_000}, 1, 'demo', ${now}, ${now}
  FROM users WHERE phone = '13800138000';
`,
    );
    await startPortal();

    target = await startTarget('127.0.0.1');
    T = { host: '127.0.0.1', port: target.port };
    config = localNodeConfig(portal, {
      name: 'node-e2e',
      exitPort: EXIT_PORT,
      targetPort: target.port,
      extra: { graceMs: GRACE_MS },
    });
    lossy = lossyClient(createPortalClient(config));
    node = new ProxyNode(config, createLogger('error'), lossy.client);
    await node.start();
  });

  after(async () => {
    await node?.stop();
    await stopPortal();
    await target?.close();
  });

  const sees = (answer: { body: string } | null | undefined) => answer?.body;

  test('the node registers its exits; the dedicated ones are allocated to the demo fixed package', async () => {
    const rows = await d1<{ ip: string; pool: number; healthy: number }>(
      `SELECT ip, pool, healthy FROM proxy_ips WHERE node_id = 1 AND port = ${EXIT_PORT} ORDER BY ip`,
    );
    assert.deepEqual(
      rows.map((r) => `${r.ip}/${r.pool}/${r.healthy}`),
      [
        '127.0.0.2/10/1',
        '127.0.0.3/10/1',
        '127.0.0.4/10/1',
        '127.0.0.5/10/1',
        '127.0.0.6/40/1',
        '127.0.0.7/40/1',
        '127.0.0.8/30/1',
        '127.0.0.9/30/1',
      ],
    );
    await until(() => fixedOfA() !== undefined, 10_000, "the demo user's fixed allocation");
  });

  test('a buyer extracts and connects over HTTP, CONNECT and SOCKS5; the target sees the exit address', async () => {
    leasedA = await extract(KEY_A, 3);
    assert.equal(leasedA.length, 3);
    for (const p of leasedA) assert.equal(p.port, EXIT_PORT);
    const p = leasedA[0] as Proxy;
    // The lease reaches the node at its next pull.
    await until(async () => (await httpGet(proxyOf(p), `http://127.0.0.1:${T.port}/`)).status === 200, 10_000, 'lease');
    assert.equal(sees(await httpGet(proxyOf(p), `http://127.0.0.1:${T.port}/`)), `from ${p.ip}`);
    const c = await connectGet(proxyOf(p), T);
    assert.equal(c.connect.status, 200);
    assert.equal(sees(c.inner), `from ${p.ip}`);
    const s = await socksGet(proxyOf(p), T);
    assert.equal(s.reply, 0);
    assert.equal(sees(s.inner), `from ${p.ip}`);
    // The proxy account works from an address that is not white-listed, over HTTP and SOCKS5.
    const q = leasedA[1] as Proxy;
    await until(async () => (await httpGet(proxyOf(q), `http://127.0.0.1:${T.port}/`)).status === 200, 10_000, 'lease');
    const fromElsewhere = { localAddress: '127.0.0.60', auth: ACCOUNT_A };
    assert.equal(sees((await connectGet(proxyOf(q), T, fromElsewhere)).inner), `from ${q.ip}`);
    assert.equal(sees((await socksGet(proxyOf(q), T, fromElsewhere)).inner), `from ${q.ip}`);
  });

  test('refusals: client not white-listed (its IP in the reason), wrong password', async () => {
    const p = leasedA[0] as Proxy;
    const h = await httpGet(proxyOf(p), `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.61' });
    assert.equal(h.status, 407);
    assert.equal(h.headers['x-proxy-refusal'], 'not_whitelisted');
    assert.match(h.body, /^您的IP 127\.0\.0\.61 不在白名单中/);
    assert.equal((await socksGet(proxyOf(p), T, { localAddress: '127.0.0.61' })).reply, 2);
    const bad = await connectGet(proxyOf(p), T, { auth: [ACCOUNT_A[0], 'wrong-password'] });
    assert.equal(bad.connect.status, 407);
    assert.equal(bad.connect.headers['x-proxy-refusal'], 'bad_credentials');
    assert.equal((await socksGet(proxyOf(p), T, { auth: [ACCOUNT_A[0], 'wrong-password'] })).reply, 'auth-failed');
  });

  test("refusals: another user's exit, a fixed IP allocated to someone else", async () => {
    leasedB = await extract(KEY_B, 1);
    const b = leasedB[0] as Proxy;
    await until(
      async () => (await httpGet(proxyOf(b), `http://127.0.0.1:${T.port}/`, { auth: ACCOUNT_B })).status === 200,
      10_000,
      "B's lease",
    );
    const onlyA = leasedA.find((a) => a.ip !== b.ip) as Proxy;
    const other = await connectGet(proxyOf(onlyA), T, { localAddress: '127.0.0.62', auth: ACCOUNT_B });
    assert.equal(other.connect.status, 403);
    assert.equal(other.connect.headers['x-proxy-refusal'], 'exit_not_leased');
    assert.match(other.connect.body, /该IP未分配给您的账号/);
    // The development seed holds other customers' dedicated IPs too: take the demo user's own.
    const fixed = fixedOfA();
    assert.ok(fixed, 'a fixed allocation of the demo user');
    const f = await httpGet({ host: fixed.ip, port: fixed.port }, `http://127.0.0.1:${T.port}/`, { auth: ACCOUNT_B });
    assert.equal(f.status, 403);
    assert.equal(f.headers['x-proxy-refusal'], 'exit_not_leased');
    // Its holder goes through.
    const mine = await connectGet({ host: fixed.ip, port: fixed.port }, T, { auth: ACCOUNT_A });
    assert.equal(sees(mine.inner), `from ${fixed.ip}`);
  });

  test('lease expired: a new connection is refused, an established one finishes inside the grace', async () => {
    // A's lease on an exit A holds nothing else on (dedup=2: not among the IPs A has in use), from the package that
    // will end. The leases live in the node's object (decision 245); a lease ends early when its package does (a
    // refund, a disable, the package's end), which the contract finds by the package (decision 044).
    const [pkg] = await d1<{ id: number }>(`SELECT id FROM proxy_packages WHERE name = '${ENDING_PACKAGE}'`);
    assert.ok(pkg, 'the package that will end');
    const [x] = await extract(KEY_A, 1, `&package=${pkg.id}&dedup=2`);
    assert.ok(x && !leasedA.some((a) => a.ip === x.ip), 'an exit A holds nothing else on');
    expired = x;
    const mineOnX = () =>
      [...node.store.leases.values()].filter((l) => l.ip === x.ip && l.port === x.port && l.packageId === pkg.id);
    await until(() => mineOnX().length === 1, 10_000, 'the lease to reach the node');
    const leaseId = (mineOnX()[0] as { id: string }).id;
    // A long download through the lease, opened before it ends.
    const s = net.connect({ host: x.ip, port: x.port, localAddress: '127.0.0.63' });
    let received = 0;
    let closedAt = 0;
    s.on('data', (d) => {
      received += d.length;
    });
    s.on('close', () => {
      closedAt = Date.now();
    });
    s.on('error', () => {});
    await new Promise((r) => s.once('connect', r));
    const basic = Buffer.from(ACCOUNT_A.join(':')).toString('base64');
    s.write(`GET http://127.0.0.1:${T.port}/slow HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic ${basic}\r\n\r\n`);
    await until(() => received > 0, 5000, 'first bytes');
    // The package's end comes 3 s after the update commits (by the database clock), long before the lease's own end:
    // the next delta after it names the lease among the ended ones and the node ends it.
    await d1(
      `UPDATE proxy_packages SET expires_at = CAST(unixepoch('subsec') * 1000 AS INTEGER) + 3000, ` +
        `updated_at = CAST(unixepoch('subsec') * 1000 AS INTEGER) WHERE id = ${pkg.id}`,
    );
    await until(() => node.store.ended.has(leaseId), 15_000, 'the end of the package to reach the node');
    assert.equal(mineOnX().length, 0);
    const endsAt = node.store.ended.get(leaseId)?.endedAt ?? 0;
    const fresh = await httpGet(proxyOf(x), `http://127.0.0.1:${T.port}/`, { auth: ACCOUNT_A });
    assert.equal(fresh.status, 454);
    assert.equal(fresh.headers['x-proxy-refusal'], 'lease_expired');
    assert.match(fresh.body, /该IP的使用时长已到期/);
    const atRefusal = received;
    await sleep(1000);
    assert.equal(closedAt, 0, 'the established download is still open inside the grace');
    assert.ok(received > atRefusal, 'and still receiving');
    await until(() => closedAt > 0, GRACE_MS + 4000, 'the close after the grace');
    assert.ok(closedAt - endsAt >= GRACE_MS - 500, `closed ${closedAt - endsAt} ms after the lease ended`);
  });

  test('a suspended account is refused with account_suspended', async () => {
    const b = leasedB[0] as Proxy;
    await d1(
      `UPDATE users SET status = 2 WHERE phone = '13900139000'; ` +
        `INSERT INTO node_changes (kind, ref, created_at) SELECT 'u', id, CAST(unixepoch('subsec') * 1000 AS INTEGER) FROM users WHERE phone = '13900139000'`,
    );
    await until(
      async () =>
        (await httpGet(proxyOf(b), `http://127.0.0.1:${T.port}/`, { auth: ACCOUNT_B })).headers['x-proxy-refusal'] ===
        'account_suspended',
      10_000,
      'the suspension to reach the node',
    );
    const h = await httpGet(proxyOf(b), `http://127.0.0.1:${T.port}/`, { auth: ACCOUNT_B });
    assert.equal(h.status, 403);
    assert.match(h.body, /账号已停用/);
  });

  test('refusals reach the portal with their codes', async () => {
    // The egress policy (decision 193): a listener on the node host's loopback, outside the allowance, is refused to a
    // customer holding a live lease, and the refusal is recorded for that customer.
    const sink = net.createServer((c) => c.destroy());
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    const sinkPort = (sink.address() as net.AddressInfo).port;
    const refused = await connectGet(
      proxyOf(liveA()),
      { host: '127.0.0.1', port: sinkPort },
      { localAddress: '127.0.0.77', auth: ACCOUNT_A },
    );
    sink.close();
    assert.equal(refused.connect.status, 450);
    assert.equal(refused.connect.headers['x-proxy-refusal'], 'target_not_public');
    node.cut();
    await node.reporter.flush(true);
    // Refusals are kept by the node's object (decision 250), none in D1.
    assert.deepEqual(await d1(`SELECT id FROM node_refusals`), []);
    const rows = nodeObjectRefusals();
    const got = rows.map((r) => `${r.code}@${r.client_ip}`);
    for (const want of [
      'not_whitelisted@127.0.0.61',
      'bad_credentials@127.0.0.1',
      'exit_not_leased@127.0.0.62',
      'lease_expired@127.0.0.1',
      'account_suspended@127.0.0.1',
      'target_not_public@127.0.0.77',
    ])
      assert.ok(got.includes(want), `${want} in ${got.join(', ')}`);
    const egress = rows.filter((r) => r.code === 'target_not_public');
    assert.ok(egress.length > 0 && egress.every((r) => r.user_id !== 0), 'recorded for the customer');
  });

  test('a usage push retried after a lost answer is counted once and reaches records and bandwidth', async () => {
    node.cut();
    await node.reporter.flush(true);
    const before = await reportedBytesOfA();
    const p = liveA();
    const big = await connectGet(
      proxyOf(p),
      { ...T, path: '/big/200000' },
      { localAddress: '127.0.0.64', auth: ACCOUNT_A },
    );
    assert.equal(big.connect.status, 200);
    await sleep(100);
    lossy.state.loseNextUsageAnswer = true;
    const pushes = lossy.state.usagePushes;
    node.cut();
    await node.reporter.flush(true);
    assert.equal(node.reporter.pendingFiles().length, 1, 'the batch stays on disk after the lost answer');
    await node.reporter.flush(true);
    assert.equal(lossy.state.usagePushes, pushes + 2, 'pushed twice');
    assert.equal(node.reporter.pendingFiles().length, 0);
    // The row went to the lease in the node's object (decision 249), not to D1; D1 holds the batch's marker once and
    // its hourly total, once.
    const inD1 = await d1<{ n: number }>(`SELECT count(*) AS n FROM node_usage WHERE client_ip = '127.0.0.64'`);
    assert.equal(inD1[0]?.n, 0, 'kept by the node object');
    const [batch] = await d1<{ batch_id: string; rows: number }>(
      `SELECT batch_id, rows FROM node_batches WHERE node_id = 1 AND kind = 'usage' ORDER BY received_at DESC LIMIT 1`,
    );
    assert.equal(batch?.rows, 1);
    const batches = await d1<{ n: number }>(
      `SELECT count(*) AS n FROM node_batches WHERE batch_id = '${batch?.batch_id}'`,
    );
    assert.equal(batches[0]?.n, 1);
    const added = (await reportedBytesOfA()) - before;
    assert.ok(added > 200_000 && added < 400_000, `stored once: ${added} bytes`);
    // The 5-minute job rolls node usage into the bandwidth charts (usage_hourly, read by Statistics.Bandwidth).
    const r = await fetch(`${BASE}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
    assert.equal(r.status, 200);
    const sum = { reported: await reportedBytesOfA() };
    await until(
      async () => {
        const [h] = await d1<{ charted: number }>(
          `SELECT coalesce(sum(bytes_out), 0) AS charted FROM usage_hourly WHERE user_id = (SELECT id FROM users WHERE phone = '13800138000')`,
        );
        return (h?.charted ?? 0) === (sum?.reported ?? -1);
      },
      20_000,
      'usage_hourly to hold the reported bytes once',
    );
  });

  test('the node keeps serving across a portal restart and delivers its buffered reports afterwards', async () => {
    node.cut();
    await node.reporter.flush(true);
    const before = await reportedBytesOfA();
    await stopPortal();
    const p = liveA();
    const during = await connectGet(
      proxyOf(p),
      { ...T, path: '/big/50000' },
      { localAddress: '127.0.0.65', auth: ACCOUNT_A },
    );
    assert.equal(during.connect.status, 200, 'served while the portal is down');
    assert.equal(sees(during.inner)?.length, 50_000);
    await sleep(100);
    node.cut();
    await node.reporter.flush(true);
    assert.ok(node.reporter.pendingFiles().length >= 1, 'reports buffered on disk');
    await startPortal();
    await until(
      async () => {
        await node.reporter.flush(true);
        return node.reporter.pendingFiles().length === 0;
      },
      30_000,
      'the buffered reports to be delivered',
    );
    const added = (await reportedBytesOfA()) - before;
    assert.ok(added > 50_000 && added < 100_000, `delivered once: ${added} bytes`);
    // And the contract keeps flowing: a new extraction works through the node.
    const [n] = await extract(KEY_A, 1);
    await until(
      async () => (await httpGet(proxyOf(n as Proxy), `http://127.0.0.1:${T.port}/`)).status === 200,
      15_000,
      'a new lease after the restart',
    );
  });
});
