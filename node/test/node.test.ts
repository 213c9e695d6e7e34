// The reference node over real sockets against a fake portal: authorization decisions for HTTP, CONNECT and SOCKS5,
// binding to the exit address, grace on lease end, stale contract, disk spool with retries counted once.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../src/config.ts';
import { createLogger, silentLogger } from '../src/log.ts';
import { ProxyNode } from '../src/node.ts';
import { grownReadBytes, setReadBudget } from '../src/tunnel.ts';
import {
  connectGet,
  exitConfig,
  type FakePortal,
  httpGet,
  lease,
  SECRET,
  sleep,
  socksGet,
  startFakePortal,
  startTarget,
  until,
  user,
} from './helpers.ts';

const EXIT_A = { host: '127.0.0.2', port: 28001 };
const EXIT_B = { host: '127.0.0.3', port: 28001 };
const EXIT_C = { host: '127.0.0.4', port: 28001 };

/** The tests' local targets listen on 127.0.0.1: let them through the egress policy (development-only setting). */
const DEV_ENV = { ...process.env, YUNSHU_NODE_DEV: '1' };

function makeConfig(portal: FakePortal, stateDir: string, extra: Record<string, unknown> = {}) {
  return parseConfig(
    {
      portalUrl: portal.url,
      nodeId: 1,
      secret: SECRET,
      stateDir,
      graceMs: 1500,
      staleMs: 60_000,
      flushMs: 3_600_000,
      pullMs: 200,
      exits: [EXIT_A, EXIT_B, EXIT_C].map((e, i) => exitConfig(e, i === 2 ? 30 : 10)),
      egressAllow: ['127.0.0.1:*'],
      ...extra,
    },
    process.cwd(),
    DEV_ENV,
  );
}

const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A raw target for tunnels: the client sends "N M\n" and then M bytes; the target sends the first N bytes of
 * `payload`, hashes the M bytes it receives, and ends once both are done.
 */
async function startBulkTarget(payload: Buffer) {
  const uploads: { bytes: number; hash: string }[] = [];
  const server = net.createServer({ allowHalfOpen: true }, (s) => {
    s.on('error', () => {});
    let head = Buffer.alloc(0);
    let parsed = false;
    let want = 0;
    const got: Buffer[] = [];
    let gotBytes = 0;
    let sent = false;
    const maybeEnd = () => {
      if (!sent || gotBytes < want) return;
      uploads.push({ bytes: gotBytes, hash: hash(Buffer.concat(got)) });
      s.end();
    };
    s.on('data', (d: Buffer) => {
      if (parsed) {
        got.push(d);
        gotBytes += d.length;
        return maybeEnd();
      }
      head = Buffer.concat([head, d]);
      const i = head.indexOf(10);
      if (i < 0) return;
      parsed = true;
      const [n = 0, m = 0] = head.subarray(0, i).toString().split(' ').map(Number);
      want = m;
      const rest = head.subarray(i + 1);
      if (rest.length) {
        got.push(rest);
        gotBytes += rest.length;
      }
      let off = 0;
      const pump = () => {
        while (off < n) {
          const chunk = payload.subarray(off, Math.min(n, off + 200_000));
          off += chunk.length;
          if (!s.write(chunk)) return s.once('drain', pump);
        }
        sent = true;
        maybeEnd();
      };
      pump();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    uploads,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Opens a CONNECT tunnel (or, with socks, a SOCKS5 one) to the target and resolves with the established socket. */
function openTunnelTo(
  exit: { host: string; port: number },
  target: { host: string; port: number },
  localAddress: string,
  socks = false,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ ...exit, localAddress });
    let buf = Buffer.alloc(0);
    let stage = 0;
    s.on('error', reject);
    s.on('connect', () => {
      if (socks) s.write(Buffer.from([5, 1, 0]));
      else s.write(`CONNECT ${target.host}:${target.port} HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\n\r\n`);
    });
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (!socks) {
        const i = buf.indexOf('\r\n\r\n');
        if (i < 0) return;
        if (!buf.subarray(0, 12).toString().startsWith('HTTP/1.1 200')) return reject(new Error(buf.toString()));
        s.off('data', onData);
        if (buf.length > i + 4) s.unshift(buf.subarray(i + 4));
        return resolve(s);
      }
      if (stage === 0 && buf.length >= 2) {
        buf = buf.subarray(2);
        const port = Buffer.alloc(2);
        port.writeUInt16BE(target.port);
        s.write(Buffer.concat([Buffer.from([5, 1, 0, 1, ...target.host.split('.').map(Number)]), port]));
        stage = 1;
      }
      if (stage === 1 && buf.length >= 10) {
        if (buf[1] !== 0) return reject(new Error(`socks reply ${buf[1]}`));
        s.off('data', onData);
        if (buf.length > 10) s.unshift(buf.subarray(10));
        resolve(s);
      }
    };
    s.on('data', onData);
  });
}

/** Asks for n bytes, sends `upload`, reads everything (pausing as a slow reader at the given offsets) until close. */
function bulk(s: net.Socket, n: number, upload: Buffer, pauseAt: number[] = []) {
  return new Promise<{ received: Buffer; bytesRead: number; bytesWritten: number }>((resolve, reject) => {
    const parts: Buffer[] = [];
    let got = 0;
    const pauses = [...pauseAt];
    s.on('data', (d: Buffer) => {
      parts.push(d);
      got += d.length;
      if (pauses.length && got >= (pauses[0] as number)) {
        pauses.shift();
        s.pause();
        setTimeout(() => s.resume(), 150);
      }
    });
    s.on('error', reject);
    s.on('close', () =>
      resolve({ received: Buffer.concat(parts), bytesRead: s.bytesRead, bytesWritten: s.bytesWritten }),
    );
    s.write(`${n} ${upload.length}\n`);
    s.write(upload);
  });
}

describe('yunshu-node', () => {
  let portal: FakePortal;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let node: ProxyNode;
  let dir: string;
  let T: { host: string; port: number };

  before(async () => {
    portal = await startFakePortal();
    target = await startTarget();
    T = { host: '127.0.0.1', port: target.port };
    dir = mkdtempSync(join(tmpdir(), 'yunshu-node-'));
    // User 7: white-listed client 127.0.0.1, lease on A. User 8: account only, lease on A and exclusive on C.
    // User 9: suspended, white-listed client 127.0.0.9.
    portal.users.set(7, user(7, { whiteList: [{ ip: '127.0.0.1', expiresAt: 0 }] }));
    portal.users.set(8, user(8));
    portal.users.set(9, user(9, { active: false, whiteList: [{ ip: '127.0.0.9', expiresAt: 0 }] }));
    portal.leases.set('a1', lease('a1', EXIT_A.host, EXIT_A.port, 7));
    portal.leases.set('a2', lease('a2', EXIT_A.host, EXIT_A.port, 8));
    portal.leases.set('a3', lease('a3', EXIT_A.host, EXIT_A.port, 9));
    portal.leases.set('f1', lease('f1', EXIT_C.host, EXIT_C.port, 8, { exclusive: true, productType: 30 }));
    node = new ProxyNode(makeConfig(portal, dir), silentLogger);
    await node.start();
  });

  after(async () => {
    await node.stop();
    await portal.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('registers its exits with a signed heartbeat and pulls a full contract', () => {
    const hb = portal.heartbeats[0] as { version: string; exits: { ip: string; healthy: boolean; pool: number }[] };
    assert.equal(hb.version, 'yunshu-node/1.0.0');
    assert.deepEqual(
      hb.exits.map((e) => [e.ip, e.pool, e.healthy]),
      [
        ['127.0.0.2', 10, true],
        ['127.0.0.3', 10, true],
        ['127.0.0.4', 30, true],
      ],
    );
    assert.equal(portal.pulls[0], '');
    assert.equal(node.store.leases.size, 4);
  });

  test('a white-listed client goes through HTTP, CONNECT and SOCKS5, and the target sees the exit address', async () => {
    const h = await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`);
    assert.equal(h.status, 200);
    assert.equal(h.body, 'from 127.0.0.2');
    const c = await connectGet(EXIT_A, T);
    assert.equal(c.connect.status, 200);
    assert.equal(c.inner?.body, 'from 127.0.0.2');
    const s = await socksGet(EXIT_A, T);
    assert.equal(s.reply, 0);
    assert.equal(s.inner?.body, 'from 127.0.0.2');
  });

  test('credentials work from any client address, over HTTP, CONNECT and SOCKS5', async () => {
    const from = { localAddress: '127.0.0.20', auth: ['u8', 'pw8'] as [string, string] };
    assert.equal((await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`, from)).body, 'from 127.0.0.2');
    assert.equal((await connectGet(EXIT_A, T, from)).inner?.body, 'from 127.0.0.2');
    const s = await socksGet(EXIT_A, T, from);
    assert.equal(s.reply, 0);
    assert.equal(s.inner?.body, 'from 127.0.0.2');
  });

  test('an unknown client is refused with not_whitelisted, 407 and its own IP in the reason', async () => {
    const h = await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.21' });
    assert.equal(h.status, 407);
    assert.equal(h.headers['x-proxy-refusal'], 'not_whitelisted');
    assert.match(h.body, /您的IP 127\.0\.0\.21 不在白名单中/);
    const c = await connectGet(EXIT_A, T, { localAddress: '127.0.0.21' });
    assert.equal(c.connect.status, 407);
    assert.equal(c.connect.headers['x-proxy-refusal'], 'not_whitelisted');
    const s = await socksGet(EXIT_A, T, { localAddress: '127.0.0.21' });
    assert.equal(s.reply, 2);
  });

  test('a wrong password is refused with bad_credentials (HTTP 407, SOCKS5 sub-negotiation failure)', async () => {
    const h = await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`, { auth: ['u8', 'nope'] });
    assert.equal(h.status, 407);
    assert.equal(h.headers['x-proxy-refusal'], 'bad_credentials');
    assert.match(h.body, /代理账号或密码错误/);
    const s = await socksGet(EXIT_A, T, { auth: ['u8', 'nope'] });
    assert.equal(s.reply, 'auth-failed');
  });

  test("another user's exit and someone else's exclusive exit are refused with exit_not_leased", async () => {
    const b = await connectGet(EXIT_B, T);
    assert.equal(b.connect.status, 403);
    assert.equal(b.connect.headers['x-proxy-refusal'], 'exit_not_leased');
    assert.match(b.connect.body, /该IP未分配给您的账号/);
    const c = await httpGet(EXIT_C, `http://127.0.0.1:${T.port}/`);
    assert.equal(c.status, 403);
    assert.equal(c.headers['x-proxy-refusal'], 'exit_not_leased');
    assert.equal((await socksGet(EXIT_C, T)).reply, 2);
    // The holder of the exclusive lease goes through.
    const ok = await connectGet(EXIT_C, T, { auth: ['u8', 'pw8'] });
    assert.equal(ok.inner?.body, 'from 127.0.0.4');
  });

  test('a suspended account is refused with account_suspended', async () => {
    const h = await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.9' });
    assert.equal(h.status, 403);
    assert.equal(h.headers['x-proxy-refusal'], 'account_suspended');
    assert.match(h.body, /账号已停用/);
  });

  test('refusals are pushed with the code and, when known, the user', async () => {
    node.cut();
    await node.reporter.flush(true);
    const rows = [...portal.refusals.values()].flatMap((b) => b.rows);
    const codes = rows.map((r) => `${r.code}:${r.userId}:${r.clientIp}`);
    assert.ok(codes.includes('not_whitelisted:null:127.0.0.21'), codes.join());
    assert.ok(codes.includes('bad_credentials:null:127.0.0.1'), codes.join());
    assert.ok(codes.includes('exit_not_leased:7:127.0.0.1'), codes.join());
    assert.ok(codes.includes('account_suspended:9:127.0.0.9'), codes.join());
  });

  test('1,000 refused connections of one client to one exit are one refusal row counting 1,000 (decision 251)', async () => {
    node.cut();
    await node.reporter.flush(true);
    const before = new Set(portal.refusals.keys());
    const started = Date.now();
    for (let i = 0; i < 1000; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const h = await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.23' });
          assert.equal(h.headers['x-proxy-refusal'], 'not_whitelisted');
        }),
      );
    node.cut();
    await node.reporter.flush(true);
    const rows = [...portal.refusals.entries()]
      .filter(([id]) => !before.has(id))
      .flatMap(([, b]) => b.rows)
      .filter((r) => r.clientIp === '127.0.0.23');
    assert.equal(rows.length, 1, JSON.stringify(rows.slice(0, 3)));
    const [row] = rows;
    assert.equal(row?.count, 1000);
    assert.equal(row?.code, 'not_whitelisted');
    assert.equal(row?.userId, null);
    assert.ok(row && row.at >= started && (row.lastAt ?? 0) >= row.at && (row.lastAt ?? 0) <= Date.now());
  });

  test('usage counts bytes both ways and connections per user, exit and client address', async () => {
    node.cut();
    await node.reporter.flush(true);
    const before = new Set(portal.usage.keys());
    await connectGet(EXIT_A, { ...T, path: '/big/100000' }, { localAddress: '127.0.0.22', auth: ['u8', 'pw8'] });
    await connectGet(EXIT_A, { ...T, path: '/big/50000' }, { localAddress: '127.0.0.22', auth: ['u8', 'pw8'] });
    await sleep(50);
    node.cut();
    await node.reporter.flush(true);
    const rows = [...portal.usage.entries()]
      .filter(([id]) => !before.has(id))
      .flatMap(([, b]) => b.rows)
      .filter((r) => r.userId === 8 && r.clientIp === '127.0.0.22');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.connections, 2);
    assert.ok((rows[0]?.bytesOut ?? 0) > 150_000, `bytesOut ${rows[0]?.bytesOut}`);
    assert.ok((rows[0]?.bytesIn ?? 0) > 100 && (rows[0]?.bytesIn ?? 0) < 2000, `bytesIn ${rows[0]?.bytesIn}`);
  });

  test('over_concurrency and over_rate refuse past the per-user limits', async () => {
    portal.users.set(8, user(8, { limits: { maxConcurrent: 1, newPerSecond: 100 } }));
    await node.pull();
    // Tunnels of user 8 from earlier tests may still be closing on a loaded machine: they would take the one slot.
    await until(() => node.auth.limiter.concurrent(8) === 0, 3000, 'earlier tunnels of user 8 closed');
    const hold = net.connect({ ...EXIT_A, localAddress: '127.0.0.23' });
    await new Promise((r) => hold.once('connect', r));
    hold.write(
      `CONNECT 127.0.0.1:${T.port} HTTP/1.1\r\nProxy-Authorization: Basic ${Buffer.from('u8:pw8').toString('base64')}\r\n\r\n`,
    );
    const held = await new Promise<Buffer>((r) => hold.once('data', r));
    assert.match(held.toString(), /^HTTP\/1\.1 200/, 'the first tunnel holds the slot');
    const second = await connectGet(EXIT_A, T, { auth: ['u8', 'pw8'] });
    assert.equal(second.connect.status, 442);
    assert.equal(second.connect.headers['x-proxy-refusal'], 'over_concurrency');
    hold.destroy();
    portal.users.set(8, user(8, { limits: { maxConcurrent: 100, newPerSecond: 2 } }));
    await node.pull();
    await sleep(1100);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await connectGet(EXIT_A, T, { auth: ['u8', 'pw8'] })).connect.status);
    assert.deepEqual(codes.slice(0, 2), [200, 200]);
    assert.ok(codes.slice(2).includes(441), codes.join());
    portal.users.set(8, user(8));
    await node.pull();
  });

  test('a lease that ends refuses new connections; an established one finishes inside the grace, then is closed', async () => {
    portal.users.set(10, user(10, { whiteList: [{ ip: '127.0.0.30', expiresAt: 0 }] }));
    portal.leases.set('a10', lease('a10', EXIT_B.host, EXIT_B.port, 10));
    await node.pull();
    // A long download through the lease.
    const s = net.connect({ ...EXIT_B, localAddress: '127.0.0.30' });
    let received = 0;
    let closedAt = 0;
    s.on('data', (d) => {
      received += d.length;
    });
    s.on('close', () => {
      closedAt = Date.now();
    });
    await new Promise((r) => s.once('connect', r));
    s.write(`GET http://127.0.0.1:${T.port}/slow HTTP/1.1\r\nHost: x\r\n\r\n`);
    await until(() => received > 0, 3000, 'first bytes');
    // The lease is ended early by the portal.
    portal.leases.delete('a10');
    portal.ended.push('a10');
    const endedAt = Date.now();
    await node.pull();
    const fresh = await httpGet(EXIT_B, `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.30' });
    assert.equal(fresh.status, 454);
    assert.equal(fresh.headers['x-proxy-refusal'], 'lease_expired');
    assert.match(fresh.body, /该IP的使用时长已到期/);
    const atRefusal = received;
    await sleep(800);
    assert.equal(closedAt, 0, 'still open inside the grace');
    assert.ok(received > atRefusal, 'still moving data inside the grace');
    await until(() => closedAt > 0, 4000, 'close after the grace');
    assert.ok(closedAt - endedAt >= 1400, `closed ${closedAt - endedAt} ms after the end`);
  });

  test('CONNECT and SOCKS5 tunnels move large payloads intact both ways, past slow readers, several at once; every byte is counted once', async () => {
    const payload = randomBytes(6 * 1024 * 1024);
    const bulkTarget = await startBulkTarget(payload);
    const B = { host: '127.0.0.1', port: bulkTarget.port };
    portal.users.set(12, user(12, { whiteList: [{ ip: '127.0.0.40', expiresAt: 0 }] }));
    portal.leases.set('a12', lease('a12', EXIT_A.host, EXIT_A.port, 12));
    await node.pull();
    node.cut();
    await node.reporter.flush(true);
    const before = new Set(portal.usage.keys());
    const uploads = [randomBytes(1_500_000), randomBytes(10), randomBytes(700_000), randomBytes(2_000_000)];
    const sizes = [payload.length, 3_000_000, 1, payload.length];
    const sockets = await Promise.all(
      [false, false, true, true].map((socks) => openTunnelTo(EXIT_A, B, '127.0.0.40', socks)),
    );
    const runs = sockets.map((s, i) =>
      bulk(s, sizes[i] as number, uploads[i] as Buffer, i % 2 === 0 ? [1_000_000, 4_000_000] : []),
    );
    let grownMax = 0;
    const sample = setInterval(() => {
      grownMax = Math.max(grownMax, grownReadBytes());
    }, 20);
    await sleep(100);
    node.cut(); // a cut in the middle of the transfers: what it counted is not counted again later
    const results = await Promise.all(runs);
    clearInterval(sample);
    assert.ok(grownMax > 0, 'bulk tunnels read with grown buffers');
    for (const [i, r] of results.entries()) {
      assert.equal(r.received.length, sizes[i], `tunnel ${i} length`);
      assert.equal(hash(r.received), hash(payload.subarray(0, sizes[i])), `tunnel ${i} download intact`);
    }
    assert.deepEqual(
      bulkTarget.uploads.map((u) => `${u.bytes}:${u.hash}`).sort(),
      uploads.map((u) => `${u.length}:${hash(u)}`).sort(),
      'uploads intact',
    );
    await sleep(50);
    node.cut();
    await node.reporter.flush(true);
    const rows = [...portal.usage.entries()]
      .filter(([id]) => !before.has(id))
      .flatMap(([, b]) => b.rows)
      .filter((r) => r.userId === 12 && r.clientIp === '127.0.0.40');
    const sum = (k: 'bytesIn' | 'bytesOut' | 'connections') => rows.reduce((a, r) => a + r[k], 0);
    assert.equal(sum('connections'), 4);
    // What the clients received is what the node counted out; what they sent, in (requests and handshakes included).
    assert.equal(
      sum('bytesOut'),
      results.reduce((a, r) => a + r.bytesRead, 0),
    );
    assert.equal(
      sum('bytesIn'),
      results.reduce((a, r) => a + r.bytesWritten, 0),
    );
    assert.equal(grownReadBytes(), 0, 'read buffers returned when the tunnels closed');
    await bulkTarget.close();
  });

  test('CONNECT to a target that refuses the connection answers 502 with the error code', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const c = await connectGet(EXIT_A, { host: '127.0.0.1', port: closedPort });
    assert.equal(c.connect.status, 502);
    assert.equal(c.connect.headers['x-proxy-error'], 'ECONNREFUSED');
    assert.match(c.connect.body, /无法连接目标/);
  });

  test('with the read-buffer budget spent, tunnels keep 64 KiB reads and still move everything intact', async () => {
    const payload = randomBytes(4 * 1024 * 1024);
    const bulkTarget = await startBulkTarget(payload);
    setReadBudget(0);
    try {
      let grownMax = 0;
      const sample = setInterval(() => {
        grownMax = Math.max(grownMax, grownReadBytes());
      }, 5);
      const s = await openTunnelTo(EXIT_A, { host: '127.0.0.1', port: bulkTarget.port }, '127.0.0.1');
      const r = await bulk(s, payload.length, Buffer.alloc(0), [1_000_000, 2_500_000]);
      clearInterval(sample);
      assert.equal(grownMax, 0, 'no buffer grew past 64 KiB');
      assert.equal(hash(r.received), hash(payload));
    } finally {
      setReadBudget(256 * 1024 * 1024);
      await bulkTarget.close();
    }
  });

  test('a CONNECT tunnel whose lease ends keeps moving inside the grace, is closed after it, and its bytes are counted', async () => {
    portal.users.set(13, user(13, { whiteList: [{ ip: '127.0.0.41', expiresAt: 0 }] }));
    portal.leases.set('a13', lease('a13', EXIT_B.host, EXIT_B.port, 13));
    await node.pull();
    node.cut();
    await node.reporter.flush(true);
    const before = new Set(portal.usage.keys());
    const s = await openTunnelTo(EXIT_B, T, '127.0.0.41');
    let received = 0;
    let closedAt = 0;
    s.on('data', (d: Buffer) => {
      received += d.length;
    });
    const closed = new Promise<void>((r) =>
      s.on('close', () => {
        closedAt = Date.now();
        r();
      }),
    );
    s.write(`GET /slow HTTP/1.1\r\nHost: x\r\n\r\n`);
    await until(() => received > 0, 3000, 'first bytes');
    portal.leases.delete('a13');
    portal.ended.push('a13');
    const endedAt = Date.now();
    await node.pull();
    const fresh = await connectGet(EXIT_B, T, { localAddress: '127.0.0.41' });
    assert.equal(fresh.connect.status, 454);
    const atRefusal = received;
    await sleep(800);
    assert.equal(closedAt, 0, 'still open inside the grace');
    assert.ok(received > atRefusal, 'still moving data inside the grace');
    await closed;
    assert.ok(closedAt - endedAt >= 1400, `closed ${closedAt - endedAt} ms after the end`);
    await sleep(50);
    node.cut();
    await node.reporter.flush(true);
    const rows = [...portal.usage.entries()]
      .filter(([id]) => !before.has(id))
      .flatMap(([, b]) => b.rows)
      .filter((r) => r.userId === 13);
    assert.equal(
      rows.reduce((a, r) => a + r.bytesOut, 0),
      s.bytesRead,
      'counted what the client received',
    );
    assert.equal(
      rows.reduce((a, r) => a + r.bytesIn, 0),
      s.bytesWritten,
    );
  });

  test('a lease that reaches expiresAt is expired by the node clock, without a pull', async () => {
    portal.users.set(11, user(11, { whiteList: [{ ip: '127.0.0.31', expiresAt: 0 }] }));
    portal.leases.set('a11', lease('a11', EXIT_B.host, EXIT_B.port, 11, { expiresAt: Date.now() + 700 }));
    await node.pull();
    assert.equal((await httpGet(EXIT_B, `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.31' })).status, 200);
    await sleep(800);
    const h = await httpGet(EXIT_B, `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.31' });
    assert.equal(h.headers['x-proxy-refusal'], 'lease_expired');
  });

  test('a push whose answer is lost is retried with the same batch id and counted once', async () => {
    node.cut();
    await node.reporter.flush(true);
    await connectGet(EXIT_A, { ...T, path: '/big/1000' }, { localAddress: '127.0.0.24', auth: ['u8', 'pw8'] });
    await sleep(50);
    portal.loseNextUsageAnswer = true;
    const calls = portal.usageCalls;
    node.cut();
    await node.reporter.flush(true);
    assert.equal(node.reporter.pendingFiles().length, 1, 'kept on disk after the lost answer');
    await node.reporter.flush(true);
    assert.equal(portal.usageCalls, calls + 2);
    assert.equal(node.reporter.pendingFiles().length, 0);
    assert.equal(node.reporter.stats.duplicates, 1);
    const batches = [...portal.usage.values()].filter((b) => b.rows.some((r) => r.clientIp === '127.0.0.24'));
    assert.equal(batches.length, 1, 'stored once');
  });

  test('while the portal is down: serves from the last contract, spools reports on disk, delivers them after a restart', async () => {
    node.cut();
    await node.reporter.flush(true);
    portal.down = true;
    await sleep(400); // failed pulls
    const ok = await connectGet(
      EXIT_A,
      { ...T, path: '/big/3000' },
      { localAddress: '127.0.0.25', auth: ['u8', 'pw8'] },
    );
    assert.equal(ok.connect.status, 200);
    await sleep(50);
    node.cut();
    await node.reporter.flush(true);
    const spooled = readdirSync(join(dir, 'spool')).filter((f) => f.endsWith('.json'));
    assert.ok(spooled.length >= 1, 'batch waiting on disk');
    // Restart the node while the portal is still down: it loads the contract from disk and keeps serving.
    await node.stop();
    node = new ProxyNode(makeConfig(portal, dir), silentLogger);
    await node.start();
    const again = await connectGet(EXIT_A, T, { localAddress: '127.0.0.26', auth: ['u8', 'pw8'] });
    assert.equal(again.inner?.body, 'from 127.0.0.2');
    portal.down = false;
    await node.reporter.flush(true);
    const rows = [...portal.usage.values()].flatMap((b) => b.rows).filter((r) => r.clientIp === '127.0.0.25');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.connections, 1);
    assert.equal(node.reporter.pendingFiles().length, 0);
  });

  test('past the stale limit without a successful pull, new connections get contract_stale until a pull succeeds', async () => {
    await node.stop();
    node = new ProxyNode(makeConfig(portal, dir, { staleMs: 600 }), silentLogger);
    await node.start();
    assert.equal((await connectGet(EXIT_A, T)).connect.status, 200);
    portal.down = true;
    await sleep(900);
    const h = await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`);
    assert.equal(h.status, 503);
    assert.equal(h.headers['x-proxy-refusal'], 'contract_stale');
    assert.match(h.body, /节点暂时无法确认授权/);
    assert.equal((await socksGet(EXIT_A, T)).reply, 2);
    portal.down = false;
    await until(async () => (await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`)).status === 200, 3000, 'fresh again');
  });
  test('a malformed contract from the portal is refused with an error log line, and the last good contract stays in force', async () => {
    await node.stop();
    const lines: { level: string; msg: string; problem?: string }[] = [];
    const log = createLogger('info', (l) => lines.push(JSON.parse(l)));
    node = new ProxyNode(makeConfig(portal, dir), log);
    await node.start();
    assert.equal((await connectGet(EXIT_A, T)).connect.status, 200);
    const good = node.store.cursor;
    // A full snapshot whose leases lack their port and whose users lack their limits: applied, it would wipe every
    // lease and user the node holds.
    portal.tamper = (a) => ({
      ...a,
      full: true,
      leases: [{ id: 'a1', ip: EXIT_A.host, userId: 7 }],
      users: [{ userId: 7, active: true }],
    });
    portal.changed();
    await until(async () => lines.some((l) => l.msg.startsWith('contract refused')), 3000, 'refusal logged');
    const refused = lines.find((l) => l.msg.startsWith('contract refused'));
    assert.equal(refused?.level, 'error');
    assert.match(refused?.msg ?? '', /malformed answer from the portal, keeping the last good contract/);
    assert.match(refused?.problem ?? '', /leases\.0\.port/);
    assert.equal(node.store.cursor, good);
    assert.equal(node.store.leases.get('a1')?.port, EXIT_A.port);
    const h = await httpGet(EXIT_A, `http://127.0.0.1:${T.port}/`);
    assert.equal(h.status, 200);
    assert.equal(h.body, 'from 127.0.0.2');
    assert.equal(
      (await connectGet(EXIT_A, T, { auth: ['u8', 'pw8'], localAddress: '127.0.0.20' })).connect.status,
      200,
    );
    // The portal mends its answer: the next pull is applied again.
    portal.tamper = null;
    portal.leases.set('a60', lease('a60', EXIT_A.host, EXIT_A.port, 8));
    portal.changed();
    await until(async () => node.store.leases.has('a60'), 3000, 'a good contract applied after the bad one');
  });

  test('a connection right after an extraction waits for the next pull instead of being refused (bounded)', async () => {
    await node.stop();
    // No scheduled pull in sight: only the early pull a waiting connection brings forward can deliver the lease.
    node = new ProxyNode(makeConfig(portal, dir, { pullMs: 600_000, leaseWaitMs: 3000 }), silentLogger);
    await node.start();
    assert.equal((await connectGet(EXIT_B, T)).connect.status, 403);
    portal.leases.set('a50', lease('a50', EXIT_B.host, EXIT_B.port, 7));
    portal.changed();
    const fresh = await connectGet(EXIT_B, T);
    assert.equal(fresh.connect.status, 200);
    assert.equal(fresh.inner?.body, 'from 127.0.0.3');
    // An unknown client is not held: it is refused at once, as before.
    const unknown = await httpGet(EXIT_B, `http://127.0.0.1:${T.port}/`, { localAddress: '127.0.0.22' });
    assert.equal(unknown.status, 407);
    // With leaseWaitMs 0 the node refuses at once.
    await node.stop();
    node = new ProxyNode(makeConfig(portal, dir, { pullMs: 600_000, leaseWaitMs: 0 }), silentLogger);
    await node.start();
    portal.leases.set('a51', lease('a51', EXIT_B.host, EXIT_B.port, 8));
    portal.changed();
    const at = await httpGet(EXIT_B, `http://127.0.0.1:${T.port}/`, { auth: ['u8', 'pw8'] });
    assert.equal(at.status, 403);
    assert.equal(at.headers['x-proxy-refusal'], 'exit_not_leased');
  });
});

describe('yunshu-node keeps what was sold and sheds what was not', () => {
  const EXIT = { host: '127.0.0.5', port: 28021 };
  let portal: FakePortal;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let T: { host: string; port: number };
  let dir: string;
  let node: ProxyNode | null = null;
  let logged: string[] = [];

  const exitRaw = (e: { host: string; port: number }) => exitConfig(e);
  const startNode = async (extra: Record<string, unknown>) => {
    await node?.stop();
    logged = [];
    const log = createLogger('debug', (l) => {
      logged.push(l);
    });
    node = new ProxyNode(makeConfig(portal, dir, { exits: [exitRaw(EXIT)], ...extra }), log);
    await node.start();
    return node;
  };
  /** Opens a raw connection from `localAddress`, sends `bytes`, resolves with when (ms after connect) it closed. */
  const opener = (localAddress: string, bytes: Buffer | string | null) => {
    const s = net.connect({ ...EXIT, localAddress });
    s.on('error', () => {});
    let openedAt = 0;
    const connected = new Promise<void>((r) =>
      s.on('connect', () => {
        openedAt = Date.now();
        if (bytes !== null) s.write(bytes);
        r();
      }),
    );
    const closed = new Promise<number>((r) => s.on('close', () => r(Date.now() - openedAt)));
    let received = Buffer.alloc(0);
    s.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
    });
    return { s, connected, closed, received: () => received };
  };
  /** Resolves with the close time, or null when still open after ms. */
  const closedWithin = (p: Promise<number>, ms: number) =>
    Promise.race([p, sleep(ms).then(() => null)]) as Promise<number | null>;

  before(async () => {
    portal = await startFakePortal();
    target = await startTarget();
    T = { host: '127.0.0.1', port: target.port };
    dir = mkdtempSync(join(tmpdir(), 'yunshu-node-shed-'));
    portal.users.set(20, user(20, { whiteList: [{ ip: '127.0.0.60', expiresAt: 0 }] }));
    portal.leases.set('d20', lease('d20', EXIT.host, EXIT.port, 20));
  });

  after(async () => {
    await node?.stop();
    await portal.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('openers that do not finish their handshake are closed at the deadline: silent, a lone 0x05, a SOCKS5 greeting without a request, an HTTP head without its blank line', async () => {
    const n = await startNode({ handshakeMs: 700, leaseWaitMs: 0 });
    const openers = [
      opener('127.0.0.61', null),
      opener('127.0.0.61', Buffer.from([5])),
      opener('127.0.0.61', Buffer.from([5, 1, 0])),
      opener('127.0.0.61', `CONNECT ${T.host}:${T.port} HTTP/1.1\r\nHost: x\r\n`),
      opener('127.0.0.61', `GET http://${T.host}:${T.port}/ HTTP/1.1\r\nHost: x\r\n`),
    ];
    await Promise.all(openers.map((o) => o.connected));
    const times = await Promise.all(openers.map((o) => closedWithin(o.closed, 3000)));
    for (const [i, ms] of times.entries()) {
      assert.ok(ms !== null, `opener ${i} still open after 3 s`);
      assert.ok(ms >= 600 && ms < 2000, `opener ${i} closed after ${ms} ms`);
    }
    assert.deepEqual([...(openers[2]?.received() ?? [])], [5, 0], 'the greeting was answered, then the opener closed');
    assert.equal(n.plane.shed.handshakeTimeout, 5);
    // A client that finishes its handshake in time is served as before, and stays open past the deadline.
    const s = await openTunnelTo(EXIT, T, '127.0.0.60');
    let got = '';
    s.on('data', (d) => {
      got += d;
    });
    s.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(1200);
    assert.ok(!s.destroyed && got.startsWith('HTTP/1.1 200'), 'authorized tunnel kept past the deadline');
    s.destroy();
  });

  test('unfinished openers are capped per source address: past the cap they are closed at once, other sources unaffected', async () => {
    const n = await startNode({ handshakeMs: 5000, maxOpenersPerSource: 3, leaseWaitMs: 0 });
    const first = [opener('127.0.0.62', null), opener('127.0.0.62', Buffer.from([5])), opener('127.0.0.62', 'GET')];
    await Promise.all(first.map((o) => o.connected));
    await sleep(100);
    const over = opener('127.0.0.62', Buffer.from([5, 1, 0]));
    await over.connected;
    assert.ok((await closedWithin(over.closed, 1000)) !== null, 'the fourth opener of one source is closed at once');
    assert.equal(n.plane.shed.tooManyOpeners, 1);
    const other = opener('127.0.0.63', null);
    await other.connected;
    assert.equal(await closedWithin(other.closed, 300), null, 'another source is not affected');
    for (const o of first) assert.equal(await closedWithin(o.closed, 0), null, 'the first three stay open');
    // A closed opener frees its slot.
    first[0]?.s.destroy();
    await first[0]?.closed;
    await sleep(50);
    const again = opener('127.0.0.62', null);
    await again.connected;
    assert.equal(await closedWithin(again.closed, 300), null, 'a freed slot takes a new opener');
    for (const o of [...first, other, again]) o.s.destroy();
    // Authorized connections hold no opener slot: white-listed 127.0.0.60 opens more tunnels than the cap.
    const tunnels = await Promise.all([1, 2, 3, 4, 5].map(() => openTunnelTo(EXIT, T, '127.0.0.60')));
    assert.equal(tunnels.length, 5);
    for (const s of tunnels) s.destroy();
  });

  test('a connection lives while its customer holds any live lease on the exit: a re-extracted lease keeps CONNECT, SOCKS5 and HTTP downloads past the old lease’s grace', async () => {
    await startNode({ handshakeMs: 5000 });
    const n = node as ProxyNode;
    portal.users.set(21, user(21, { whiteList: [{ ip: '127.0.0.64', expiresAt: 0 }] }));
    portal.leases.set('e1', lease('e1', EXIT.host, EXIT.port, 21));
    portal.changed();
    await n.pull();
    const downloads: { s: net.Socket; received: () => number; closedAt: () => number }[] = [];
    const track = (s: net.Socket) => {
      let received = 0;
      let closedAt = 0;
      s.on('data', (d: Buffer) => {
        received += d.length;
      });
      s.on('close', () => {
        closedAt = Date.now();
      });
      downloads.push({ s, received: () => received, closedAt: () => closedAt });
    };
    for (const socks of [false, true]) {
      const s = await openTunnelTo(EXIT, T, '127.0.0.64', socks);
      track(s);
      s.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    }
    const h = net.connect({ ...EXIT, localAddress: '127.0.0.64' });
    track(h);
    h.on('connect', () => h.write(`GET http://${T.host}:${T.port}/slow HTTP/1.1\r\nHost: x\r\n\r\n`));
    await until(() => downloads.every((d) => d.received() > 0), 3000, 'first bytes');
    // The customer extracts the same exit again (lease e2), then the first lease ends.
    portal.leases.set('e2', lease('e2', EXIT.host, EXIT.port, 21));
    portal.leases.delete('e1');
    portal.ended.push('e1');
    portal.changed();
    await n.pull();
    const atEnd = downloads.map((d) => d.received());
    await sleep(1500 + 1500); // the grace (1.5 s) and more
    for (const [i, d] of downloads.entries()) {
      assert.equal(d.closedAt(), 0, `download ${i} still open past the old lease's grace`);
      assert.ok(d.received() > (atEnd[i] as number), `download ${i} still moving`);
    }
    // When the customer holds no live lease on the exit any more, the grace applies as before.
    portal.leases.delete('e2');
    portal.ended.push('e2');
    portal.changed();
    const endedAt = Date.now();
    await n.pull();
    await until(() => downloads.every((d) => d.closedAt() > 0), 5000, 'closed after the grace');
    for (const d of downloads) assert.ok(d.closedAt() - endedAt >= 1400, `closed ${d.closedAt() - endedAt} ms after`);
  });

  test('a new customer (client address or proxy account unknown to the node) waits for the early pull and is served', async () => {
    const n = await startNode({ pullMs: 600_000, leaseWaitMs: 3000, handshakeMs: 5000 });
    assert.equal(n.store.users.has(22), false);
    // The portal grants the leases after the node's last pull; the node has no scheduled pull in sight.
    portal.users.set(22, user(22, { whiteList: [{ ip: '127.0.0.65', expiresAt: 0 }] }));
    portal.leases.set('g22', lease('g22', EXIT.host, EXIT.port, 22));
    portal.changed();
    const w = await connectGet(EXIT, T, { localAddress: '127.0.0.65' });
    assert.equal(w.connect.status, 200, w.connect.body);
    assert.equal(w.inner?.body, 'from 127.0.0.5');
    // The same for an account: HTTP with credentials and SOCKS5 with credentials.
    portal.users.set(23, user(23));
    portal.leases.set('g23', lease('g23', EXIT.host, EXIT.port, 23));
    portal.changed();
    const a = await httpGet(EXIT, `http://${T.host}:${T.port}/`, { localAddress: '127.0.0.66', auth: ['u23', 'pw23'] });
    assert.equal(a.status, 200, a.body);
    portal.users.set(24, user(24));
    portal.leases.set('g24', lease('g24', EXIT.host, EXIT.port, 24));
    portal.changed();
    const s = await socksGet(EXIT, T, { localAddress: '127.0.0.67', auth: ['u24', 'pw24'] });
    assert.equal(s.reply, 0);
    assert.equal(s.inner?.body, 'from 127.0.0.5');
    // What the pull does not bring is refused after the bounded wait, and many such clients share few pulls.
    const pullsBefore = portal.pulls.length;
    const t0 = Date.now();
    const refused = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        httpGet(EXIT, `http://${T.host}:${T.port}/`, { localAddress: `127.0.1.${i + 1}` }),
      ),
    );
    assert.ok(
      refused.every((r) => r.status === 407 && r.headers['x-proxy-refusal'] === 'not_whitelisted'),
      refused.map((r) => r.status).join(),
    );
    assert.ok(Date.now() - t0 < 3000 + 1000, `refused within the wait bound (${Date.now() - t0} ms)`);
    assert.ok(portal.pulls.length - pullsBefore <= 3, `${portal.pulls.length - pullsBefore} pulls for 20 unknowns`);
    const bad = await socksGet(EXIT, T, { localAddress: '127.0.0.68', auth: ['u23', 'wrong'] });
    assert.equal(bad.reply, 'auth-failed');
  });

  test('bytes a client sends before its tunnel opens (with the CONNECT head, and while the node waits for the pull) reach the target in order', async () => {
    await startNode({ pullMs: 600_000, leaseWaitMs: 3000, handshakeMs: 5000 });
    // A first early pull now, so the next one comes 500 ms later: the tunnel below waits that long.
    await httpGet(EXIT, `http://${T.host}:${T.port}/`, { localAddress: '127.0.1.100' });
    portal.users.set(25, user(25, { whiteList: [{ ip: '127.0.0.69', expiresAt: 0 }] }));
    portal.leases.set('g25', lease('g25', EXIT.host, EXIT.port, 25));
    portal.changed();
    const s = net.connect({ ...EXIT, localAddress: '127.0.0.69' });
    let data = '';
    s.on('data', (d) => {
      data += d;
    });
    const closed = new Promise<void>((r) => s.on('close', () => r()));
    await new Promise((r) => s.once('connect', r));
    s.write(`CONNECT ${T.host}:${T.port} HTTP/1.1\r\nHost: x\r\n\r\nGET / HT`);
    await sleep(100);
    s.write('TP/1.1\r\nHost: x\r\n');
    await sleep(100);
    assert.equal(data, '', 'still waiting for the pull');
    s.write('Connection: close\r\n\r\n');
    await closed;
    assert.match(data, /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    assert.ok(data.endsWith('from 127.0.0.5'), data);
  });

  test('an exit the node cannot bind is logged as an error naming it and left out of the heartbeat', async () => {
    const UNBOUND = { host: '192.0.2.1', port: 28021 };
    const n = await startNode({ exits: [exitRaw(EXIT), exitRaw(UNBOUND)] });
    const hb = portal.heartbeats.at(-1) as { exits: { ip: string; port: number; healthy: boolean }[] };
    assert.deepEqual(
      hb.exits.map((e) => [e.ip, e.port, e.healthy]),
      [[EXIT.host, EXIT.port, true]],
    );
    const errors = logged.map((l) => JSON.parse(l)).filter((l) => l.level === 'error');
    assert.ok(
      errors.some((l) => l.exit === '192.0.2.1:28021' && /cannot be bound/.test(l.msg)),
      JSON.stringify(errors),
    );
    // Later heartbeats try again and still leave it out, without logging the same error again.
    await n.heartbeat();
    assert.deepEqual(
      (portal.heartbeats.at(-1) as typeof hb).exits.map((e) => e.ip),
      [EXIT.host],
    );
    assert.equal(logged.map((l) => JSON.parse(l)).filter((l) => l.level === 'error').length, errors.length);
  });
});
