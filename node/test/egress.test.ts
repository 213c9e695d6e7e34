// The egress policy over real sockets (decision 193): targets on the node host's loopback, names resolving there,
// IPv4-mapped forms, SMTP ports and the operator's rules are refused over HTTP, CONNECT and SOCKS5 with their codes,
// while a development allowance lets a named ip:port through; proxy headers never reach the target; a SOCKS5 name
// with NUL bytes gets a reply and a close. Plus the policy's classification without sockets.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, parseConfig } from '../src/config.ts';
import { ContractStore } from '../src/contract.ts';
import { EgressPolicy, isPublicAddress, NO_EGRESS_RULES } from '../src/egress.ts';
import { silentLogger } from '../src/log.ts';
import { ProxyNode } from '../src/node.ts';
import {
  connectGet,
  type FakePortal,
  httpGet,
  lease,
  SECRET,
  socksGet,
  startFakePortal,
  startTarget,
  until,
  user,
} from './helpers.ts';

const EXIT = { host: '127.0.0.6', port: 28021 };

/** A raw SOCKS5 CONNECT with any address type; resolves with the reply code (or 'closed'/'timeout') once settled. */
function socksRaw(
  exit: { host: string; port: number },
  atyp: 1 | 3 | 4,
  addr: Buffer,
  port: number,
): Promise<{ reply: number | 'closed' | 'timeout'; closed: boolean }> {
  return new Promise((resolve) => {
    const s = net.connect({ ...exit, localAddress: '127.0.0.1' });
    let buf = Buffer.alloc(0);
    let stage = 0;
    let reply: number | 'closed' | 'timeout' = 'closed';
    const timer = setTimeout(() => {
      reply = 'timeout';
      resolve({ reply, closed: false });
      s.destroy();
    }, 3000);
    s.on('error', () => {});
    s.on('connect', () => s.write(Buffer.from([5, 1, 0])));
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (stage === 0 && buf.length >= 2) {
        buf = buf.subarray(2);
        stage = 1;
        const p = Buffer.alloc(2);
        p.writeUInt16BE(port);
        const len = atyp === 3 ? Buffer.from([addr.length]) : Buffer.alloc(0);
        s.write(Buffer.concat([Buffer.from([5, 1, 0, atyp]), len, addr, p]));
      }
      if (stage === 1 && buf.length >= 2) reply = buf[1] as number;
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ reply, closed: true });
    });
  });
}

const ipv4 = (ip: string) => Buffer.from(ip.split('.').map(Number));
const ipv6Mapped = (ip: string) =>
  Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...ip.split('.').map(Number)]);

describe('egress policy', { timeout: 60_000 }, () => {
  let portal: FakePortal;
  let allowed: Awaited<ReturnType<typeof startTarget>>;
  let node: ProxyNode;
  let dir: string;
  /** A listener on the node host's loopback that must never be reached (the SMTP catcher). */
  let sink: net.Server;
  let sinkPort: number;
  const sinkSeen: string[] = [];
  /** Records the request headers it receives. */
  let echo: http.Server;
  let echoPort: number;
  const echoed: string[][] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    portal = await startFakePortal();
    allowed = await startTarget();
    sink = net.createServer((s) => {
      // Records what reached it and hangs up, so a client that got through sees an answer instead of waiting.
      s.on('data', (d) => {
        sinkSeen.push(String(d));
        s.end();
      });
      setTimeout(() => s.destroy(), 500).unref();
      s.on('error', () => {});
      sinkSeen.push('connected');
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    sinkPort = (sink.address() as net.AddressInfo).port;
    echo = http.createServer((req, res) => {
      echoed.push(req.rawHeaders);
      res.end('ok');
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoPort = (echo.address() as net.AddressInfo).port;
    dir = mkdtempSync(join(tmpdir(), 'yunshu-egress-'));
    portal.users.set(7, user(7, { whiteList: [{ ip: '127.0.0.1', expiresAt: 0 }] }));
    portal.leases.set('e1', lease('e1', EXIT.host, EXIT.port, 7));
    const config = parseConfig(
      {
        portalUrl: portal.url,
        nodeId: 1,
        secret: SECRET,
        stateDir: dir,
        staleMs: 60_000,
        flushMs: 3_600_000,
        pullMs: 600_000,
        exits: [{ ip: EXIT.host, port: EXIT.port, province: '广东省', city: '深圳市', carrier: '电信' }],
        // Only the allowed target and the header echo, by exact port: the sink on the same loopback is not allowed.
        egressAllow: [`127.0.0.1:${allowed.port}`, `127.0.0.1:${echoPort}`],
      },
      process.cwd(),
      { YUNSHU_NODE_DEV: '1' },
    );
    node = new ProxyNode(config, silentLogger);
    await node.start();
  });

  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await node.stop();
    await portal.close();
    await allowed.close();
    await new Promise<void>((r) => sink.close(() => r()));
    echo.closeAllConnections();
    await new Promise<void>((r) => echo.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  test('the allowance lets the allowed address and port through over HTTP, CONNECT and SOCKS5', async () => {
    const T = { host: '127.0.0.1', port: allowed.port };
    assert.equal((await httpGet(EXIT, `http://127.0.0.1:${T.port}/`)).body, 'from 127.0.0.6');
    assert.equal((await connectGet(EXIT, T)).inner?.body, 'from 127.0.0.6');
    assert.equal((await socksGet(EXIT, T)).inner?.body, 'from 127.0.0.6');
    // A name is resolved and the resolved address checked: localhost -> 127.0.0.1 is allowed on that port too.
    assert.equal((await connectGet(EXIT, { host: 'localhost', port: T.port })).inner?.body, 'from 127.0.0.6');
    // Plain HTTP to a name connects to the checked address (proxy-chain is handed a lookup that answers only it).
    assert.equal((await httpGet(EXIT, `http://localhost:${T.port}/`)).body, 'from 127.0.0.6');
  });

  test('a loopback listener outside the allowance is refused by IP over CONNECT and plain HTTP, and never reached', async () => {
    const c = await connectGet(EXIT, { host: '127.0.0.1', port: sinkPort });
    assert.equal(c.connect.status, 450);
    assert.equal(c.connect.headers['x-proxy-refusal'], 'target_not_public');
    assert.equal(c.inner, null);
    const h = await httpGet(EXIT, `http://127.0.0.1:${sinkPort}/`);
    assert.equal(h.status, 450);
    assert.equal(h.headers['x-proxy-refusal'], 'target_not_public');
    const other = await connectGet(EXIT, { host: '127.0.0.9', port: allowed.port });
    assert.equal(other.connect.status, 450, 'another loopback address on the allowed port is not allowed');
    const mapped = await connectGet(EXIT, { host: '[::ffff:127.0.0.1]', port: sinkPort });
    assert.equal(mapped.connect.status, 450);
    assert.equal(mapped.connect.headers['x-proxy-refusal'], 'target_not_public');
    assert.deepEqual(sinkSeen, []);
  });

  test('a domain resolving to loopback is refused (CONNECT and plain HTTP), with its own code', async () => {
    const c = await connectGet(EXIT, { host: 'localhost', port: sinkPort });
    assert.equal(c.connect.status, 452);
    assert.equal(c.connect.headers['x-proxy-refusal'], 'target_resolves_private');
    const h = await httpGet(EXIT, `http://localhost:${sinkPort}/`);
    assert.equal(h.status, 452);
    assert.deepEqual(sinkSeen, []);
  });

  test('SOCKS5: the loopback listener is refused as IPv4, as IPv4-mapped IPv6 and as the domain localhost', async () => {
    for (const [atyp, addr] of [
      [1, ipv4('127.0.0.1')],
      [4, ipv6Mapped('127.0.0.1')],
      [3, Buffer.from('localhost')],
    ] as const) {
      const r = await socksRaw(EXIT, atyp, addr, sinkPort);
      assert.deepEqual(r, { reply: 2, closed: true }, `address type ${atyp}`);
    }
    assert.deepEqual(sinkSeen, []);
  });

  test('SMTP port 25 is refused with 448 before any connection is tried', async () => {
    const c = await connectGet(EXIT, { host: '93.184.215.14', port: 25 });
    assert.equal(c.connect.status, 448);
    assert.equal(c.connect.headers['x-proxy-refusal'], 'target_port_forbidden');
    assert.equal((await socksRaw(EXIT, 1, ipv4('93.184.215.14'), 587)).reply, 2);
  });

  test('a SOCKS5 name with NUL bytes is refused with a reply and a close, no unhandled rejection', async () => {
    const r = await socksRaw(EXIT, 3, Buffer.from('example.com\0.evil'), 80);
    assert.deepEqual(r, { reply: 2, closed: true });
    await new Promise((res) => setTimeout(res, 50));
    assert.deepEqual(unhandled, []);
  });

  test('plain HTTP reaches the target without proxy headers', async () => {
    const s = net.connect({ ...EXIT, localAddress: '127.0.0.1' });
    const answer = await new Promise<string>((resolve, reject) => {
      let data = '';
      s.on('connect', () =>
        s.write(
          `GET http://127.0.0.1:${echoPort}/h HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\n` +
            'Proxy-Connection: Keep-Alive\r\nVia: 1.1 upstream\r\nX-Forwarded-For: 10.1.2.3\r\nForwarded: for=10.1.2.3\r\n' +
            'X-Real-IP: 10.1.2.3\r\nX-Secret-Hop: 1\r\nConnection: close, X-Secret-Hop\r\nX-Kept: yes\r\n\r\n',
        ),
      );
      s.on('data', (d) => {
        data += d;
      });
      s.on('close', () => resolve(data));
      s.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1.1 200/);
    const seen = (echoed.at(-1) ?? []).filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    assert.ok(seen.includes('x-kept'));
    for (const h of ['proxy-connection', 'proxy-authorization', 'via', 'x-forwarded-for', 'forwarded', 'x-real-ip'])
      assert.ok(!seen.includes(h), `${h} reached the target`);
    assert.ok(!seen.includes('x-secret-hop'), 'a header named in Connection reached the target');
    // With a proxy account: Proxy-Authorization is consumed, never passed on.
    const withAuth = await httpGet(EXIT, `http://127.0.0.1:${echoPort}/a`, { auth: ['u7', 'pw7'] });
    assert.equal(withAuth.status, 200);
    const seen2 = (echoed.at(-1) ?? []).filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    assert.ok(!seen2.includes('proxy-authorization'));
  });

  test("the operator's blocked domains, CIDRs and ports apply at the next pull", async () => {
    const T = { host: '127.0.0.1', port: allowed.port };
    assert.equal((await connectGet(EXIT, { host: 'localhost', port: T.port })).connect.status, 200);
    portal.setEgress({ blockedDomains: ['localhost'] });
    await node.pull();
    const d = await connectGet(EXIT, { host: 'localhost', port: T.port });
    assert.equal(d.connect.status, 451);
    assert.equal(d.connect.headers['x-proxy-refusal'], 'target_blocked');
    assert.equal((await connectGet(EXIT, T)).connect.status, 200, 'the address itself is not blocked by a domain');

    portal.setEgress({ blockedDomains: [], blockedCidrs: ['127.0.0.0/30'] });
    await node.pull();
    const c = await connectGet(EXIT, T);
    assert.equal(c.connect.status, 451);
    assert.equal((await socksGet(EXIT, T)).reply, 2);
    assert.equal((await httpGet(EXIT, `http://127.0.0.1:${T.port}/`)).status, 451);

    portal.setEgress({ blockedCidrs: [], blockedPorts: [T.port] });
    await node.pull();
    const p = await connectGet(EXIT, T);
    assert.equal(p.connect.status, 448);
    assert.equal(p.connect.headers['x-proxy-refusal'], 'target_port_forbidden');
    // The rules held survive a restart with the saved contract.
    node.store.save();
    const reloaded = new ContractStore(join(dir, 'contract.json'));
    assert.equal(reloaded.load(), true);
    assert.deepEqual(reloaded.egress.blockedPorts, [T.port]);

    portal.setEgress({ blockedPorts: [] });
    await node.pull();
    assert.equal((await connectGet(EXIT, T)).connect.status, 200, 'rules removed at the next pull');
  });

  test('egress refusals are reported with the code and the user', async () => {
    node.cut();
    await node.reporter.flush(true);
    await until(() => portal.refusals.size > 0, 3000, 'refusal batch');
    const rows = [...portal.refusals.values()].flatMap((b) => b.rows);
    const codes = new Set(rows.map((r) => r.code));
    for (const code of [
      'target_not_public',
      'target_resolves_private',
      'target_port_forbidden',
      'target_blocked',
      'target_invalid',
    ])
      assert.ok(codes.has(code), code);
    assert.ok(rows.filter((r) => r.code.startsWith('target_')).every((r) => r.userId === 7));
  });
});

describe('egress policy: classification', () => {
  const policy = (opts: ConstructorParameters<typeof EgressPolicy>[0]) => new EgressPolicy(opts);
  const rules = () => NO_EGRESS_RULES;

  test('only public unicast passes: private, loopback, CGNAT, link-local, metadata, multicast, reserved, IPv6 forms', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '224.0.0.1',
      '240.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:c0a8:101::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    ])
      assert.equal(isPublicAddress(a), false, a);
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      assert.equal(isPublicAddress(a), true, a);
  });

  test('a name is decided by what it resolves to, and the caller gets the checked address (no second lookup)', async () => {
    let lookups = 0;
    const p = policy({
      rules,
      resolve: async (h) => {
        lookups++;
        return h === 'rebind.example'
          ? [{ address: '10.0.0.5', family: 4 }]
          : [
              { address: '192.168.0.9', family: 4 },
              { address: '93.184.215.14', family: 4 },
            ];
      },
    });
    assert.deepEqual(await p.check('rebind.example', 80), { ok: false, code: 'target_resolves_private' });
    assert.deepEqual(await p.check('mixed.example', 443), { ok: true, address: '93.184.215.14', family: 4 });
    assert.equal(lookups, 2);
  });

  test("the node host's own addresses are refused even when public", async () => {
    const p = policy({ rules, ownAddresses: () => ['93.184.215.14'] });
    assert.deepEqual(await p.check('93.184.215.14', 443), { ok: false, code: 'target_not_public' });
    assert.deepEqual(await p.check('::ffff:93.184.215.14', 443), { ok: false, code: 'target_not_public' });
  });

  test('the allowance is exact: the portal address and port pass, another port on the same loopback does not', async () => {
    const p = policy({ rules, allow: [{ ip: '127.0.0.1', port: 8787 }] });
    assert.equal((await p.check('127.0.0.1', 8787)).ok, true);
    assert.deepEqual(await p.check('127.0.0.1', 2525), { ok: false, code: 'target_not_public' });
    assert.deepEqual(await p.check('127.0.0.2', 8787), { ok: false, code: 'target_not_public' });
  });

  test('SMTP ports are refused unless the lease’s product type is allowed them; bad names and ports are invalid', async () => {
    const p = policy({ rules: () => ({ ...NO_EGRESS_RULES, smtpProductTypes: [30] }) });
    for (const port of [25, 465, 587]) {
      assert.deepEqual(await p.check('93.184.215.14', port, { productType: 10 }), {
        ok: false,
        code: 'target_port_forbidden',
      });
      assert.equal((await p.check('93.184.215.14', port, { productType: 30 })).ok, true);
    }
    for (const host of ['a\0b.example', 'has space.example', '', 'x'.repeat(300)])
      assert.deepEqual(await p.check(host, 80), { ok: false, code: 'target_invalid' });
    assert.deepEqual(await p.check('93.184.215.14', 0), { ok: false, code: 'target_invalid' });
  });

  test('egressAllow is a development-only setting: refused without YUNSHU_NODE_DEV=1', () => {
    const raw = {
      portalUrl: 'https://portal.example.com',
      nodeId: 1,
      secret: 's',
      exits: [{ ip: '203.0.113.10', port: 18000, province: '广东省', city: '深圳市', carrier: '电信' }],
      egressAllow: ['127.0.0.1:8787'],
    };
    assert.throws(() => parseConfig(raw, '/tmp', {}), ConfigError);
    assert.deepEqual(parseConfig(raw, '/tmp', { YUNSHU_NODE_DEV: '1' }).egressAllow, [{ ip: '127.0.0.1', port: 8787 }]);
    assert.throws(() => parseConfig({ ...raw, egressAllow: ['localhost:8787'] }, '/tmp', { YUNSHU_NODE_DEV: '1' }));
    assert.deepEqual(parseConfig({ ...raw, egressAllow: undefined }, '/tmp', {}).egressAllow, []);
  });
});
