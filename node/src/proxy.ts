// The data plane: one listening socket per exit serves HTTP, HTTPS (CONNECT) and SOCKS5. The first byte tells them
// apart (0x05 is SOCKS5); HTTP goes to proxy-chain, SOCKS5 to @pondwader/socks5-server. Every connection is decided by
// the Authorizer from the contract held, and the outgoing connection is bound to the exit address. An authorized
// tunnel (CONNECT, SOCKS5 CONNECT) moves its bytes through openTunnel (tunnel.ts); plain HTTP requests are forwarded by
// proxy-chain.
import type http from 'node:http';
import net, { type LookupFunction } from 'node:net';
import { Socks5Server } from '@pondwader/socks5-server';
import { Server as HttpProxyServer, RequestError } from 'proxy-chain';
import {
  type Attempt,
  type Authorizer,
  type Decision,
  REFUSAL_STATUS,
  type RefusalCode,
  refusalReason,
} from './authorize.ts';
import type { ExitConfig } from './config.ts';
import { normalizeIp } from './contract.ts';
import { type EgressAllow, EgressPolicy, type EgressVerdict } from './egress.ts';
import type { Logger } from './log.ts';
import type { Reporter } from './reports.ts';
import { openTunnel } from './tunnel.ts';

/**
 * proxy-chain's server with its CONNECT data path replaced: the request is parsed and authorized exactly as before
 * (prepareRequestHandling calls prepareRequestFunction, refusals go out through failRequest), then the tunnel is
 * opened by openTunnel instead of proxy-chain's stream pipes, which moved a third less than squid (decision 141).
 */
class HttpProxy extends HttpProxyServer {
  override async onConnect(request: http.IncomingMessage, socket: net.Socket, head: Buffer): Promise<void> {
    let localAddress: string | undefined;
    let target: URL;
    let opts: Awaited<ReturnType<HttpProxyServer['prepareRequestHandling']>>;
    try {
      opts = await this.prepareRequestHandling(request);
      if (!opts.trgParsed) throw new RequestError(`Target "${request.url}" could not be parsed`, 400);
      target = opts.trgParsed;
      localAddress = opts.localAddress;
    } catch (error) {
      this.failRequest(request, this.normalizeHandlerError(error as NodeJS.ErrnoException));
      return;
    }
    // The egress policy checked the target in prepareRequestFunction: connect to the address it checked.
    const checked = (opts.customTag as { address?: string } | undefined)?.address;
    const host = checked ?? (target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname);
    openTunnel(socket, { host, port: Number(target.port), localAddress }, head, {
      open: () => socket.write('HTTP/1.1 200 Connection Established\r\n\r\n'),
      fail: (err) =>
        this.failRequest(
          request,
          new RequestError(`无法连接目标 ${target.host}（${err.code ?? err.message}）`, 502, {
            'X-Proxy-Error': err.code ?? 'ERROR',
          }),
        ),
    });
  }
}

/** One client connection on an exit, from accept to close. */
export type Tracked = {
  socket: net.Socket;
  exit: ExitConfig;
  clientIp: string;
  protocol: 'http' | 'socks5' | null;
  userId: number | null;
  leaseId: string | null;
  /** Bytes already reported (socket counters at the last cut). */
  reportedIn: number;
  reportedOut: number;
  /** Set when the lease (or account) stopped authorizing it: closed at this local time. */
  graceUntil: number | null;
  /** Until the connection is first authorized: it holds an opener slot of its source, and its handshake deadline. */
  opener: { deadline: NodeJS.Timeout | null } | null;
};

type Socks5Conn = {
  socket: net.Socket;
  username?: string;
  password?: string;
  destAddress?: string;
  destPort?: number;
  command?: string;
  metadata: { tracked?: Tracked };
};

/** Shed openers are summarised in the log at most this often. */
const SHED_LOG_EVERY_MS = 60_000;

/**
 * Request headers a high-anonymity proxy never passes on (proxy-chain drops the RFC 7230 hop-by-hop set, but not
 * these): they would tell the target a proxy is in the way, or who the client is.
 */
const PROXY_HEADERS = new Set([
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'via',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'x-proxy-id',
  'client-ip',
  'true-client-ip',
]);

/** Removes proxy headers and the headers the Connection header names (hop-by-hop) from a plain HTTP request. */
export function stripProxyHeaders(request: http.IncomingMessage): void {
  const raw = request.rawHeaders;
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === 'connection')
      for (const n of (raw[i + 1] ?? '').split(',')) named.add(n.trim().toLowerCase());
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    if (PROXY_HEADERS.has(name) || (named.has(name) && name !== 'host')) continue;
    kept.push(raw[i] as string, raw[i + 1] as string);
  }
  request.rawHeaders.splice(0, raw.length, ...kept);
}

/** A lookup that answers with the address the egress policy checked (no second resolution). */
const fixedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

export class ProxyPlane {
  readonly tracked = new Set<Tracked>();
  private bySocket = new WeakMap<net.Socket, Tracked>();
  private listeners = new Map<string, net.Server>();
  private http: HttpProxy;
  private socksAuth: Socks5Server;
  private socksOpen: Socks5Server;
  private auth: Authorizer;
  private reporter: Reporter;
  private log: Logger;
  private graceMs: number;
  private freshContract: ((maxWaitMs: number) => Promise<void>) | null;
  private leaseWaitMs: number;
  private handshakeMs: number;
  private maxOpenersPerSource: number;
  /** Unfinished openers (accepted, not yet authorized) per client address. */
  private openers = new Map<string, number>();
  /** Openers closed unauthorized: past the handshake deadline, or over the per-source cap at accept. */
  readonly shed = { handshakeTimeout: 0, tooManyOpeners: 0 };
  private shedLoggedAt = 0;
  private sweeper: NodeJS.Timeout | null = null;
  readonly egress: EgressPolicy;

  constructor(opts: {
    auth: Authorizer;
    reporter: Reporter;
    log: Logger;
    graceMs: number;
    /** Resolves after the next contract pull (early, coalesced) or after maxWaitMs, whichever comes first. */
    freshContract?: (maxWaitMs: number) => Promise<void>;
    /** How long a connection may wait for a lease or customer the portal just granted (0: never wait). */
    leaseWaitMs?: number;
    /** Development only: targets let through the egress address check (config `egressAllow`). */
    egressAllow?: EgressAllow[];
    /** A connection not authorized this long after accept is closed (0: no deadline). */
    handshakeMs?: number;
    /** At most this many unfinished openers per client address; more are closed at accept (0: no cap). */
    maxOpenersPerSource?: number;
  }) {
    this.auth = opts.auth;
    this.reporter = opts.reporter;
    this.log = opts.log;
    this.graceMs = opts.graceMs;
    this.freshContract = opts.freshContract ?? null;
    this.leaseWaitMs = opts.leaseWaitMs ?? 0;
    this.egress = new EgressPolicy({ rules: () => this.auth.store.egress, allow: opts.egressAllow ?? [] });
    this.handshakeMs = opts.handshakeMs ?? 0;
    this.maxOpenersPerSource = opts.maxOpenersPerSource ?? 0;

    this.http = new HttpProxy({
      port: 0,
      authRealm: 'yunshu-node',
      prepareRequestFunction: async ({ request, username, password, hostname, port, isHttp }) => {
        const t = this.bySocket.get(request.socket as net.Socket);
        if (!t) throw new RequestError('unknown connection', 500);
        const given = request.headers['proxy-authorization'] !== undefined;
        const d = await this.decideAllowingNewLease(t, given ? { username, password } : undefined);
        if (!d.ok)
          throw new RequestError(refusalReason(d.code, t.clientIp), REFUSAL_STATUS[d.code], {
            'X-Proxy-Refusal': d.code,
          });
        const v = await this.checkEgress(t, hostname, port);
        if (!v.ok && v.code === 'unresolved')
          throw new RequestError(`无法解析目标 ${hostname}（${v.error}）`, 502, { 'X-Proxy-Error': v.error });
        if (!v.ok)
          throw new RequestError(refusalReason(v.code, t.clientIp), REFUSAL_STATUS[v.code], {
            'X-Proxy-Refusal': v.code,
          });
        if (isHttp) stripProxyHeaders(request);
        return {
          localAddress: t.exit.ip,
          customTag: { address: v.address },
          // proxy-chain types this as dns.lookup itself; it is only ever called as a LookupFunction.
          dnsLookup: fixedLookup(v.address, v.family) as never,
        };
      },
    });
    this.http.on('requestFailed', ({ error }: { error: Error }) =>
      this.log.warn('http proxy request failed', { error: error.message }),
    );

    // SOCKS5: the credentials path validates the account in the sub-negotiation; both paths decide the rest in the
    // ruleset validator once the target is known.
    const connect = (conn: Socks5Conn, sendStatus: (s: string) => void) => this.socksConnect(conn, sendStatus);
    const ruleset = async (conn: Socks5Conn) => {
      const t = conn.metadata.tracked ?? this.bySocket.get(conn.socket);
      if (!t) return false;
      const creds =
        conn.username !== undefined ? { username: conn.username, password: conn.password ?? '' } : undefined;
      return (await this.decideAllowingNewLease(t, creds)).ok;
    };
    this.socksAuth = new Socks5Server();
    this.socksAuth.setAuthHandler((async (conn: Socks5Conn) => {
      const t = this.bySocket.get(conn.socket);
      if (!t) return false;
      conn.metadata.tracked = t;
      const known = () => !!this.auth.store.byCredentials(conn.username ?? '', conn.password ?? '');
      if (known()) return true;
      if (this.auth.isStale()) return true; // refused as contract_stale by the ruleset (reply 0x02)
      // An account the node does not hold yet (a new customer) may be in the next pull: wait for it, as below.
      if (this.canWait()) {
        await this.freshContract?.(this.leaseWaitMs);
        if (conn.socket.destroyed) return false; // gone while waiting: nothing to record
        if (known() || this.auth.isStale()) return true;
      }
      this.refuse(t, 'bad_credentials', null);
      return false;
    }) as never);
    this.socksOpen = new Socks5Server();
    for (const s of [this.socksAuth, this.socksOpen]) {
      s.setRulesetValidator(ruleset as never);
      s.setConnectionHandler(connect as never);
    }
  }

  private canWait(): boolean {
    return this.freshContract !== null && this.leaseWaitMs > 0;
  }

  /**
   * Whether a refusal of this attempt may be lifted by the next contract pull: a known, active user lacking only a
   * live lease on this exit (the usual case right after an extraction: the portal granted the lease after the node's
   * last pull), or a client the contract does not hold at all (an unknown white-listed address or proxy account: a
   * new customer, or one whose leases had all ended, enters the contract with the lease just granted). Reads the
   * contract only: no rate token, no concurrency slot.
   */
  private mayComeWithNextPull(a: Attempt): boolean {
    if (this.auth.isStale()) return false;
    if (this.auth.lacksLeaseOnly(a)) return true;
    return a.credentials
      ? !this.auth.store.byCredentials(a.credentials.username, a.credentials.password)
      : this.auth.store.whiteListed(a.clientIp, this.auth.store.now()).length === 0;
  }

  /**
   * Like decide, but an attempt the next pull may authorize (mayComeWithNextPull) waits, bounded by leaseWaitMs, for
   * that pull and is decided again. The decision still comes from the pulled contract; the portal is never asked
   * about this connection. Waiting costs the portal nothing per connection: early pulls are coalesced (one at a time,
   * at most one per 500 ms: ProxyNode.freshContract), and a waiting connection holds an opener slot of its source and
   * is closed at its handshake deadline, so unknown clients cannot pile up waiters either.
   */
  private async decideAllowingNewLease(t: Tracked, credentials: Attempt['credentials']): Promise<Decision> {
    if (
      this.canWait() &&
      t.userId === null &&
      this.mayComeWithNextPull({ ip: t.exit.ip, port: t.exit.port, clientIp: t.clientIp, credentials })
    ) {
      await this.freshContract?.(this.leaseWaitMs);
      // The client left (or its handshake deadline passed) while waiting: nothing is decided, nothing recorded.
      if (t.socket.destroyed) return { ok: false, code: 'contract_stale', userId: null };
    }
    return this.decide(t, credentials);
  }

  /** Decides an attempt on a tracked connection, records a refusal, binds the connection to its user on success. */
  private decide(t: Tracked, credentials: Attempt['credentials']): Decision {
    const established = t.userId !== null;
    const d = this.auth.decide({ ip: t.exit.ip, port: t.exit.port, clientIp: t.clientIp, credentials, established });
    if (!d.ok) {
      this.refuse(t, d.code, d.userId);
      return d;
    }
    if (established && t.userId !== d.user.userId) {
      // A keep-alive connection switching accounts: settle the old one, move the slot over.
      this.settle(t);
      this.auth.limiter.release(t.userId as number);
      this.auth.limiter.acquire(d.user.userId);
      this.reporter.addUsage({ ...this.rowKey(t, d.user.userId), bytesIn: 0, bytesOut: 0, connections: 1 });
    } else if (!established) {
      this.reporter.addUsage({ ...this.rowKey(t, d.user.userId), bytesIn: 0, bytesOut: 0, connections: 1 });
    }
    t.userId = d.user.userId;
    t.leaseId = d.lease.id;
    t.graceUntil = null;
    this.opened(t);
    return d;
  }

  /** The egress policy for a decided connection's target; a refusal is recorded for the connection's user. */
  private async checkEgress(t: Tracked, host: string, port: number): Promise<EgressVerdict> {
    const productType = t.leaseId === null ? null : (this.auth.store.leases.get(t.leaseId)?.productType ?? null);
    const v = await this.egress.check(host, port, { family: net.isIPv6(t.exit.ip) ? 6 : 4, productType });
    if (!v.ok && v.code !== 'unresolved') this.refuse(t, v.code, t.userId);
    return v;
  }

  private rowKey(t: Tracked, userId: number) {
    return { userId, ip: t.exit.ip, port: t.exit.port, clientIp: t.clientIp };
  }

  private refuse(t: Tracked, code: RefusalCode, userId: number | null): void {
    this.reporter.addRefusal({ at: Date.now(), clientIp: t.clientIp, ip: t.exit.ip, port: t.exit.port, userId, code });
    this.log.debug('refused', { code, clientIp: t.clientIp, exit: `${t.exit.ip}:${t.exit.port}`, userId });
  }

  /** Adds the bytes moved since the last report to the usage of the connection's user. */
  settle(t: Tracked): void {
    if (t.userId === null) return;
    const read = t.socket.bytesRead;
    const written = t.socket.bytesWritten;
    this.reporter.addUsage({
      ...this.rowKey(t, t.userId),
      bytesIn: read - t.reportedIn,
      bytesOut: written - t.reportedOut,
      connections: 0,
    });
    t.reportedIn = read;
    t.reportedOut = written;
  }

  settleAll(): void {
    for (const t of this.tracked) this.settle(t);
  }

  private socksConnect(conn: Socks5Conn, sendStatus: (s: string) => void): void {
    const t = conn.metadata.tracked ?? this.bySocket.get(conn.socket);
    if (!t || conn.command !== 'connect') {
      sendStatus('COMMAND_NOT_SUPPORTED');
      return;
    }
    // The egress policy decides the target (IPv4, IPv6 or a name, which it resolves); the tunnel connects to the
    // address it checked. A name it cannot read (e.g. with NUL bytes) is refused with a reply, never thrown.
    // The library resumes the client right after this handler returns; held until the tunnel pipes it (nextTick runs
    // before the library's own resume tick), so nothing a client sends early is lost while the name resolves.
    process.nextTick(() => conn.socket.pause());
    this.checkEgress(t, conn.destAddress ?? '', conn.destPort ?? 0).then(
      (v) => {
        if (v.ok) this.socksTunnel(conn, t, v.address, sendStatus);
        else sendStatus(v.code === 'unresolved' ? 'HOST_UNREACHABLE' : 'CONNECTION_NOT_ALLOWED');
      },
      () => sendStatus('GENERAL_FAILURE'),
    );
  }

  private socksTunnel(conn: Socks5Conn, t: Tracked, address: string, sendStatus: (s: string) => void): void {
    openTunnel(conn.socket, { host: address, port: conn.destPort as number, localAddress: t.exit.ip }, null, {
      open: () => sendStatus('REQUEST_GRANTED'),
      fail: (err) => {
        const code = err.code ?? '';
        sendStatus(
          code === 'ECONNREFUSED'
            ? 'CONNECTION_REFUSED'
            : code === 'ENETUNREACH'
              ? 'NETWORK_UNREACHABLE'
              : ['ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN'].includes(code)
                ? 'HOST_UNREACHABLE'
                : 'GENERAL_FAILURE',
        );
      },
    });
  }

  /**
   * Accepts a client connection. Until it is first authorized it is an opener: it holds one of the
   * maxOpenersPerSource slots of its address (past the cap it is closed at once) and is closed if it is not authorized
   * within handshakeMs of accept, whatever it has sent by then (a lone 0x05, a SOCKS5 greeting without a request, an
   * HTTP head without its blank line, a refused attempt, a wait for the next pull that did not bring its lease).
   */
  private accept(exit: ExitConfig, socket: net.Socket): void {
    socket.setNoDelay(true);
    socket.on('error', () => {});
    const clientIp = normalizeIp(socket.remoteAddress);
    const opening = this.openers.get(clientIp) ?? 0;
    if (this.maxOpenersPerSource > 0 && opening >= this.maxOpenersPerSource) {
      this.noteShed('tooManyOpeners', clientIp, exit);
      socket.destroy();
      return;
    }
    this.openers.set(clientIp, opening + 1);
    const t: Tracked = {
      socket,
      exit,
      clientIp,
      protocol: null,
      userId: null,
      leaseId: null,
      reportedIn: 0,
      reportedOut: 0,
      graceUntil: null,
      opener: { deadline: null },
    };
    if (this.handshakeMs > 0) {
      const deadline = setTimeout(() => {
        this.noteShed('handshakeTimeout', clientIp, exit);
        socket.destroy();
      }, this.handshakeMs);
      deadline.unref();
      t.opener = { deadline };
    }
    this.tracked.add(t);
    this.bySocket.set(socket, t);
    socket.once('close', () => {
      this.opened(t);
      this.tracked.delete(t);
      if (t.userId !== null) {
        this.settle(t);
        this.auth.limiter.release(t.userId);
      }
    });
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === 0x05) {
        t.protocol = 'socks5';
        // The method is chosen from what the client offers: username/password when offered (the client has an
        // account to present), else no authentication (white list).
        const n = chunk[1] ?? 0;
        const methods = chunk.subarray(2, 2 + n);
        (methods.includes(0x02) ? this.socksAuth : this.socksOpen)._handleConnection(socket);
      } else {
        t.protocol = 'http';
        this.http.server.emit('connection', socket);
        socket.resume();
      }
    });
  }

  /** The connection is no longer an opener (first authorized, or closed): its deadline and source slot are freed. */
  private opened(t: Tracked): void {
    if (!t.opener) return;
    if (t.opener.deadline) clearTimeout(t.opener.deadline);
    t.opener = null;
    const n = (this.openers.get(t.clientIp) ?? 1) - 1;
    if (n > 0) this.openers.set(t.clientIp, n);
    else this.openers.delete(t.clientIp);
  }

  private noteShed(kind: keyof ProxyPlane['shed'], clientIp: string, exit: ExitConfig): void {
    this.shed[kind]++;
    this.log.debug('opener closed', { reason: kind, clientIp, exit: `${exit.ip}:${exit.port}` });
    const now = Date.now();
    if (now - this.shedLoggedAt < SHED_LOG_EVERY_MS) return;
    this.shedLoggedAt = now;
    this.log.warn('openers closed unauthorized (totals since start)', {
      ...this.shed,
      last: { reason: kind, clientIp, exit: `${exit.ip}:${exit.port}` },
    });
  }

  async listen(exit: ExitConfig): Promise<void> {
    const server = net.createServer({ noDelay: true }, (s) => this.accept(exit, s));
    server.maxConnections = 100_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: exit.ip, port: exit.port, backlog: 4096 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (e) =>
      this.log.error('exit listener error', { exit: `${exit.ip}:${exit.port}`, error: e.message }),
    );
    this.listeners.set(`${exit.ip}:${exit.port}`, server);
  }

  isListening(exit: ExitConfig): boolean {
    return this.listeners.get(`${exit.ip}:${exit.port}`)?.listening ?? false;
  }

  /**
   * Starts the grace period of connections whose customer no longer holds a live lease on their exit (or whose
   * account stopped); closes those whose grace is over. A connection whose own lease ended while its customer holds
   * another live lease on the same exit (extracted it again) moves to that lease and keeps going.
   */
  sweep(now = Date.now()): void {
    for (const t of this.tracked) {
      if (t.leaseId === null || t.userId === null) continue;
      const user = this.auth.store.users.get(t.userId);
      let ok = !!user?.active && this.auth.store.isLive(t.leaseId);
      if (!ok && user?.active) {
        const other = this.liveLeaseOf(t.userId, t.exit);
        if (other) {
          this.log.info('lease ended: connection moved to a live lease of the same customer', {
            userId: t.userId,
            from: t.leaseId,
            to: other,
            exit: `${t.exit.ip}:${t.exit.port}`,
          });
          t.leaseId = other;
          ok = true;
        }
      }
      if (ok) {
        t.graceUntil = null;
        continue;
      }
      if (t.graceUntil === null) {
        t.graceUntil = now + this.graceMs;
        this.log.info('lease ended: connection in grace', {
          userId: t.userId,
          leaseId: t.leaseId,
          exit: `${t.exit.ip}:${t.exit.port}`,
          graceMs: this.graceMs,
        });
      } else if (now >= t.graceUntil) {
        this.log.info('grace over: connection closed', { userId: t.userId, leaseId: t.leaseId });
        t.socket.destroy();
      }
    }
  }

  /** A live lease of the user on the exit that would authorize a new connection (none while another user holds it
   * exclusively), or null. */
  private liveLeaseOf(userId: number, exit: ExitConfig): string | null {
    const { live } = this.auth.store.leasesOn(exit.ip, exit.port);
    if (live.some((l) => l.exclusive && l.userId !== userId)) return null;
    return live.find((l) => l.userId === userId)?.id ?? null;
  }

  startSweeper(everyMs = 1000): void {
    this.sweeper = setInterval(() => this.sweep(), everyMs);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    // server.close() waits for open connections: stop accepting, end them, then wait.
    const closed = [...this.listeners.values()].map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    for (const t of this.tracked) t.socket.destroy();
    await Promise.all(closed);
    this.listeners.clear();
  }
}
