// Test helpers: a small fake portal speaking /node/v2 (signature checked, idempotent batches), a target server that
// reports the source address it sees, and raw-socket clients for HTTP, CONNECT and SOCKS5.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Lease, User } from '../src/contract.ts';
import type { EgressRules } from '../src/egress.ts';
import { sign } from '../src/portal.ts';

export const SECRET = 'test-node-secret-0123456789';

export type FakePortal = {
  url: string;
  leases: Map<string, Lease>;
  users: Map<number, User>;
  ended: string[];
  removed: number[];
  /** The operator's egress rules: in every full answer, and in the next delta after setEgress. */
  egress: EgressRules;
  setEgress(rules: Partial<EgressRules>): void;
  /** Bumped on every change: cursors are `v<version>`. */
  version: number;
  changed(): void;
  heartbeats: unknown[];
  usage: Map<
    string,
    { rows: { userId: number; bytesIn: number; bytesOut: number; connections: number; clientIp: string }[] }
  >;
  refusals: Map<
    string,
    { rows: { code: string; userId: number | null; clientIp: string; at: number; count?: number; lastAt?: number }[] }
  >;
  usageCalls: number;
  /** When true, every call is answered by closing the connection. */
  down: boolean;
  /** Store the next usage batch but lose the answer (connection reset). */
  loseNextUsageAnswer: boolean;
  pulls: string[];
  /** When set, each contract answer is replaced by what it returns (a portal sending a malformed contract). */
  tamper: ((answer: Record<string, unknown>) => unknown) | null;
  close(): Promise<void>;
};

export async function startFakePortal(nodeId = 1): Promise<FakePortal> {
  const history: { version: number; kind: 'lease' | 'user' | 'ended' | 'removed'; id: string | number }[] = [];
  const p: FakePortal = {
    url: '',
    leases: new Map(),
    users: new Map(),
    ended: [],
    removed: [],
    egress: { blockedDomains: [], blockedCidrs: [], blockedPorts: [], smtpProductTypes: [] },
    setEgress(rules) {
      this.egress = { ...this.egress, ...rules };
      egressChanged = true;
      this.version++;
    },
    version: 1,
    changed() {
      this.version++;
    },
    heartbeats: [],
    usage: new Map(),
    refusals: new Map(),
    usageCalls: 0,
    down: false,
    loseNextUsageAnswer: false,
    pulls: [],
    tamper: null,
    close: async () => {},
  };
  void history;
  let egressChanged = false;
  let lastSnapshot = new Map<string, string>();
  const server = http.createServer(async (req, res) => {
    if (p.down) return req.socket.destroy();
    let body = '';
    for await (const c of req) body += c;
    const ts = Number(req.headers['x-node-timestamp']);
    const expected = sign(SECRET, req.method ?? '', req.url ?? '', ts, body);
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { code: 0, msg: '成功', data } : data));
    };
    if (req.headers['x-node-id'] !== String(nodeId) || req.headers['x-node-signature'] !== expected)
      return send(401, { code: 401, msg: '节点签名无效' });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/node/v2/heartbeat') {
      p.heartbeats.push(JSON.parse(body));
      return send(200, { accepted: 1, ignored: 0, serverTime: Date.now(), heartbeatMs: 30000, pullMs: 200 });
    }
    if (url.pathname === '/node/v2/contract') {
      // Like the portal: a pull that does not declare the hs1 verifiers is an old node (426).
      if (url.searchParams.get('verifier') !== 'hs1') return send(426, { code: 426, msg: '节点版本过旧' });
      const cursor = url.searchParams.get('cursor');
      p.pulls.push(cursor ?? '');
      // Full when no cursor; otherwise a delta of what differs from the last answer given.
      const now = new Map<string, string>();
      for (const l of p.leases.values()) now.set(`l:${l.id}`, JSON.stringify(l));
      for (const u of p.users.values()) now.set(`u:${u.userId}`, JSON.stringify(u));
      const full = !cursor || cursor !== `v${lastVersion}`;
      const leases: Lease[] = [];
      const users: User[] = [];
      for (const [k, v] of now)
        if (full || lastSnapshot.get(k) !== v) (k.startsWith('l:') ? leases : users).push(JSON.parse(v));
      const answer = {
        cursor: `v${p.version}`,
        full,
        serverTime: Date.now(),
        leases,
        endedLeases: full ? [] : p.ended.splice(0),
        users,
        removedUsers: full ? [] : p.removed.splice(0),
        ...(full || egressChanged ? { egress: p.egress } : {}),
      };
      egressChanged = false;
      if (full) {
        p.ended.length = 0;
        p.removed.length = 0;
      }
      lastSnapshot = now;
      lastVersion = p.version;
      return send(200, p.tamper ? p.tamper(answer) : answer);
    }
    if (url.pathname === '/node/v2/usage' || url.pathname === '/node/v2/refusals') {
      const b = JSON.parse(body);
      const store = url.pathname.endsWith('usage') ? p.usage : p.refusals;
      if (url.pathname.endsWith('usage')) p.usageCalls++;
      const duplicate = store.has(b.batchId);
      if (!duplicate) store.set(b.batchId, b);
      if (url.pathname.endsWith('usage') && p.loseNextUsageAnswer) {
        p.loseNextUsageAnswer = false;
        return req.socket.destroy();
      }
      return send(200, duplicate ? { stored: 0, duplicate: true } : { stored: b.rows.length, duplicate: false });
    }
    send(404, { code: 404, msg: 'not found' });
  });
  let lastVersion = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  p.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  p.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return p;
}

export const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** The portal's password verifier (docs/node-api.md): 'hs1$' + salt + '$' + HMAC-SHA256(salt, username ':' password). */
export function verifier(username: string, password: string, salt = randomBytes(16)): string {
  return `hs1$${salt.toString('hex')}$${createHmac('sha256', salt).update(`${username}:${password}`).digest('hex')}`;
}

export function user(userId: number, extra: Partial<User> = {}): User {
  return {
    userId,
    active: true,
    whiteList: [],
    username: `u${userId}`,
    passwordVerifier: verifier(`u${userId}`, `pw${userId}`),
    limits: { maxConcurrent: 100, newPerSecond: 100 },
    ...extra,
  };
}

export function lease(id: string, ip: string, port: number, userId: number, extra: Partial<Lease> = {}): Lease {
  const now = Date.now();
  return {
    id,
    ip,
    port,
    userId,
    packageId: 1,
    productType: 10,
    exclusive: false,
    startsAt: now - 1000,
    expiresAt: now + 3_600_000,
    ...extra,
  };
}

/** A target that answers every request with the source address it saw; also a raw echo for tunnels. */
export async function startTarget(
  host = '127.0.0.1',
): Promise<{ port: number; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.socket.remoteAddress ?? '');
    if (req.url?.startsWith('/big/')) {
      const n = Number(req.url.slice(5));
      res.writeHead(200, { 'content-length': String(n) });
      res.end(Buffer.alloc(n, 97));
      return;
    }
    if (req.url === '/slow') {
      res.writeHead(200);
      const iv = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(iv));
      return;
    }
    const text = `from ${req.socket.remoteAddress}`;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(text.length) });
    res.end(text);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type Answer = { status: number; headers: Record<string, string>; body: string };

function parseHttp(raw: string): Answer {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const lines = head.split('\r\n');
  const status = Number(lines[0]?.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status, headers, body: rest.join('\r\n\r\n') };
}

const basic = (u: string, p: string) => `Proxy-Authorization: Basic ${Buffer.from(`${u}:${p}`).toString('base64')}\r\n`;

/** Plain HTTP through the proxy (absolute-form request), from a chosen local address. */
export function httpGet(
  proxy: { host: string; port: number },
  url: string,
  opts: { localAddress?: string; auth?: [string, string] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: proxy.host, port: proxy.port, localAddress: opts.localAddress ?? '127.0.0.1' });
    let data = '';
    s.on('connect', () =>
      s.write(
        `GET ${url} HTTP/1.1\r\nHost: ${new URL(url).host}\r\n${opts.auth ? basic(...opts.auth) : ''}Connection: close\r\n\r\n`,
      ),
    );
    s.on('data', (d) => {
      data += d;
    });
    s.on('close', () => resolve(parseHttp(data)));
    s.on('error', reject);
  });
}

/** CONNECT, then a GET inside the tunnel. Resolves with the CONNECT answer and (if established) the inner answer. */
export function connectGet(
  proxy: { host: string; port: number },
  target: { host: string; port: number; path?: string },
  opts: { localAddress?: string; auth?: [string, string] } = {},
): Promise<{ connect: Answer; inner: Answer | null }> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: proxy.host, port: proxy.port, localAddress: opts.localAddress ?? '127.0.0.1' });
    let data = '';
    let connect: Answer | null = null;
    s.on('connect', () =>
      s.write(
        `CONNECT ${target.host}:${target.port} HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\n${opts.auth ? basic(...opts.auth) : ''}\r\n`,
      ),
    );
    s.on('data', (d) => {
      data += d;
      if (!connect && data.includes('\r\n\r\n')) {
        const i = data.indexOf('\r\n\r\n') + 4;
        connect = parseHttp(data.slice(0, i));
        const rest = data.slice(i);
        data = rest;
        if (connect.status === 200)
          s.write(`GET ${target.path ?? '/'} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`);
        else data = rest;
      }
    });
    s.on('close', () => {
      const c = connect ?? parseHttp(data);
      if (connect && c.status !== 200) c.body = data;
      resolve({ connect: c, inner: c.status === 200 ? parseHttp(data) : null });
    });
    s.on('error', reject);
  });
}

/** SOCKS5 CONNECT (IPv4 target), then a GET. `reply` is the SOCKS reply code, or 'auth-failed'. */
export function socksGet(
  proxy: { host: string; port: number },
  target: { host: string; port: number; path?: string },
  opts: { localAddress?: string; auth?: [string, string] } = {},
): Promise<{ reply: number | 'auth-failed' | 'no-method'; inner: Answer | null }> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: proxy.host, port: proxy.port, localAddress: opts.localAddress ?? '127.0.0.1' });
    let buf = Buffer.alloc(0);
    let stage: 'greet' | 'auth' | 'connect' | 'data' = 'greet';
    let reply: number | 'auth-failed' | 'no-method' = 'no-method';
    let inner = '';
    const sendConnect = () => {
      const ip = target.host.split('.').map(Number);
      const port = Buffer.alloc(2);
      port.writeUInt16BE(target.port);
      s.write(Buffer.concat([Buffer.from([5, 1, 0, 1, ...ip]), port]));
      stage = 'connect';
    };
    s.on('connect', () => s.write(Buffer.from(opts.auth ? [5, 1, 2] : [5, 1, 0])));
    s.on('data', (d: Buffer) => {
      if (stage === 'data') {
        inner += d;
        return;
      }
      buf = Buffer.concat([buf, d]);
      if (stage === 'greet' && buf.length >= 2) {
        const m = buf[1];
        buf = buf.subarray(2);
        if (m === 0xff) return;
        if (m === 2 && opts.auth) {
          const [u, p] = opts.auth;
          s.write(Buffer.concat([Buffer.from([1, u.length]), Buffer.from(u), Buffer.from([p.length]), Buffer.from(p)]));
          stage = 'auth';
        } else sendConnect();
      }
      if (stage === 'auth' && buf.length >= 2) {
        const ok = buf[1] === 0;
        buf = buf.subarray(2);
        if (!ok) {
          reply = 'auth-failed';
          return;
        }
        sendConnect();
      }
      if (stage === 'connect' && buf.length >= 10) {
        reply = buf[1] ?? -1;
        const rest = buf.subarray(10);
        if (reply === 0) {
          stage = 'data';
          inner += rest.toString();
          s.write(`GET ${target.path ?? '/'} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`);
        }
      }
    });
    s.on('close', () => resolve({ reply, inner: reply === 0 ? parseHttp(inner) : null }));
    s.on('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(fn: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** An exit as a test node's config lists it: the given address, a Shenzhen 电信 line, 30-day addresses. */
export const exitConfig = (e: { host: string; port: number }, pool: 10 | 30 | 40 = 10) => ({
  ip: e.host,
  port: e.port,
  pool,
  province: '广东省',
  city: '深圳市',
  carrier: '电信',
  ttlDays: 30,
});
