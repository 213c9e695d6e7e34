// A running node: exits listening, contract pulled, heartbeats sent, reports cut and pushed.
import { join } from 'node:path';
import { Authorizer, Limiter } from './authorize.ts';
import { exitExpiresAt, type NodeConfig } from './config.ts';
import { ContractStore } from './contract.ts';
import type { Logger } from './log.ts';
import { createPortalClient, type PortalClient } from './portal.ts';
import { ProxyPlane } from './proxy.ts';
import { Reporter } from './reports.ts';
import { setReadBudget } from './tunnel.ts';
import {
  type Contract,
  contractPath,
  contractSchema,
  type Heartbeat,
  type HeartbeatAnswer,
  wireProblem,
} from './wire.ts';

export class ProxyNode {
  readonly config: NodeConfig;
  readonly store: ContractStore;
  readonly auth: Authorizer;
  readonly reporter: Reporter;
  readonly plane: ProxyPlane;
  readonly client: PortalClient;
  private log: Logger;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private heartbeatMs: number;
  private pullMs: number;
  private lastSavedAt = 0;
  private pulling: Promise<boolean> | null = null;
  private wasStale = false;
  private heartbeatFailures = 0;

  constructor(config: NodeConfig, log: Logger, client?: PortalClient) {
    this.config = config;
    this.log = log;
    this.client = client ?? createPortalClient(config);
    this.store = new ContractStore(join(config.stateDir, 'contract.json'));
    this.auth = new Authorizer(this.store, new Limiter(), config.staleMs);
    this.reporter = new Reporter({
      dir: join(config.stateDir, 'spool'),
      nodeId: config.nodeId,
      client: this.client,
      maxBytes: config.spoolMaxBytes,
      log,
    });
    this.plane = new ProxyPlane({
      auth: this.auth,
      reporter: this.reporter,
      log,
      graceMs: config.graceMs,
      freshContract: (maxWaitMs) => this.freshContract(maxWaitMs),
      leaseWaitMs: config.leaseWaitMs,
      egressAllow: config.egressAllow,
      handshakeMs: config.handshakeMs,
      maxOpenersPerSource: config.maxOpenersPerSource,
    });
    this.heartbeatMs = config.heartbeatMs;
    this.pullMs = config.pullMs;
    setReadBudget(config.tunnelBufferBytes);
  }

  async start(): Promise<void> {
    if (this.store.load())
      this.log.info('contract loaded from disk', {
        leases: this.store.leases.size,
        users: this.store.users.size,
        ageMs: Date.now() - this.store.pulledAt,
      });
    await this.bindExits();
    const listening = this.config.exits.filter((e) => this.plane.isListening(e)).length;
    this.log.info('node started', { nodeId: this.config.nodeId, exits: this.config.exits.length, listening });
    this.plane.startSweeper();
    this.heartbeatFailures = (await this.heartbeat()) ? 0 : 1;
    await this.pull();
    // A failed heartbeat is retried sooner (2 s, 4 s, … up to the interval): a node started before its portal
    // registers its exits as soon as the portal answers.
    this.schedule(
      async () => {
        this.heartbeatFailures = (await this.heartbeat()) ? 0 : this.heartbeatFailures + 1;
      },
      () =>
        this.heartbeatFailures ? Math.min(this.heartbeatMs, 1000 * 2 ** this.heartbeatFailures) : this.heartbeatMs,
    );
    this.schedule(
      () => this.pull(),
      () => this.pullMs,
    );
    this.schedule(
      async () => {
        this.cut();
        await this.reporter.flush();
      },
      () => this.config.flushMs,
    );
    // Retries of spooled batches run on their own backoff, checked every second.
    this.schedule(
      () => this.reporter.flush(),
      () => 1000,
    );
  }

  /** Exits that could not be bound, by "ip:port", with the error last seen. */
  readonly unbound = new Map<string, string>();

  /**
   * Listens on every configured exit not listening yet. An exit that cannot be bound (its address is on no interface,
   * its port is taken) is logged as an error naming it, left out of heartbeats (it is not offered to the portal, so
   * customers are not handed an address that answers nothing), and tried again before every heartbeat.
   */
  private async bindExits(): Promise<void> {
    for (const exit of this.config.exits) {
      if (this.plane.isListening(exit)) continue;
      const key = `${exit.ip}:${exit.port}`;
      try {
        await this.plane.listen(exit);
        if (this.unbound.delete(key)) this.log.info('exit bound: reported again', { exit: key });
      } catch (e) {
        const error = (e as Error).message;
        if (this.unbound.get(key) !== error)
          this.log.error('exit cannot be bound: not reported to the portal (is the address on an interface?)', {
            exit: key,
            error,
          });
        this.unbound.set(key, error);
      }
    }
  }

  private schedule(fn: () => Promise<unknown>, every: () => number): void {
    const tick = async () => {
      if (this.stopped) return;
      try {
        await fn();
      } catch (e) {
        this.log.error('background task failed', { error: (e as Error).message });
      }
      if (!this.stopped) this.timers.push(setTimeout(tick, every()));
    };
    this.timers.push(setTimeout(tick, every()));
  }

  cut(): void {
    this.plane.settleAll();
    this.reporter.cut();
  }

  async heartbeat(): Promise<boolean> {
    if (!this.stopped) await this.bindExits();
    const now = Date.now();
    const exits = this.config.exits
      .filter((e) => this.plane.isListening(e))
      .map((e) => ({
        ip: e.ip,
        port: e.port,
        pool: e.pool,
        protocols: e.protocols,
        province: e.province,
        city: e.city,
        carrier: e.carrier,
        expiresAt: exitExpiresAt(e, now),
        healthy: exitExpiresAt(e, now) > now,
      }));
    try {
      // Also sent with no exit at all (none bound): the node is seen, and the portal takes its silent exits out.
      for (let i = 0; i === 0 || i < exits.length; i += 1000) {
        const beat: Heartbeat = { version: this.config.version, exits: exits.slice(i, i + 1000) };
        const a = await this.client.call<HeartbeatAnswer>('POST', '/node/v2/heartbeat', beat);
        if (a?.heartbeatMs && a.heartbeatMs >= 1000) this.heartbeatMs = a.heartbeatMs;
        if (a?.pullMs && a.pullMs >= 500) this.pullMs = Math.min(a.pullMs, this.config.pullMs);
        if (a?.ignored) this.log.warn('portal ignored exits registered by another node', { ignored: a.ignored });
      }
      return true;
    } catch (e) {
      this.log.warn('heartbeat failed', { error: (e as Error).message });
      return false;
    }
  }

  private lastEarlyPullAt = 0;
  private earlyPull: Promise<void> | null = null;

  /**
   * A pull brought forward for connections waiting on a lease: one early pull at a time, at most one per 500 ms, and
   * started after any pull already in flight (which may predate the lease). Resolves when it is applied or after
   * maxWaitMs, whichever comes first.
   */
  freshContract(maxWaitMs: number): Promise<void> {
    if (!this.earlyPull) {
      const delay = Math.max(0, this.lastEarlyPullAt + 500 - Date.now());
      this.earlyPull = new Promise<void>((r) => setTimeout(r, delay).unref())
        .then(() => this.pulling)
        .then(() => {
          this.lastEarlyPullAt = Date.now();
          return this.pull();
        })
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => {
          this.earlyPull = null;
        });
    }
    return Promise.race([this.earlyPull, new Promise<void>((r) => setTimeout(r, maxWaitMs).unref())]);
  }

  /** Pulls the contract once (concurrent calls share one pull). */
  pull(): Promise<boolean> {
    if (!this.pulling)
      this.pulling = this.doPull().finally(() => {
        this.pulling = null;
      });
    return this.pulling;
  }

  private async doPull(): Promise<boolean> {
    // A delta cut short (`more: true`) is followed at once by the next page.
    for (let page = 0; page < 100; page++) {
      const r = await this.pullPage();
      if (r !== 'more') return r;
    }
    return true;
  }

  private async pullPage(): Promise<boolean | 'more'> {
    const path = contractPath(this.store.cursor);
    let answer: Contract;
    try {
      const raw = await this.client.call<unknown>('GET', path);
      // A malformed answer is refused whole: the last good contract stays in force (and on disk) until a pull
      // brings one that parses (docs/node-api.md "GET /node/v2/contract").
      const parsed = contractSchema.safeParse(raw);
      if (!parsed.success) {
        this.log.error('contract refused: malformed answer from the portal, keeping the last good contract', {
          problem: wireProblem(parsed.error),
          cursor: this.store.cursor,
        });
        return false;
      }
      answer = parsed.data;
    } catch (e) {
      const stale = this.auth.isStale();
      if (stale && !this.wasStale)
        this.log.error('contract stale: refusing new connections until a pull succeeds', {
          lastPullAgeMs: this.store.pulledAt ? Date.now() - this.store.pulledAt : null,
        });
      this.wasStale = stale;
      this.log.warn('contract pull failed', { error: (e as Error).message });
      return false;
    }
    const before = this.store.cursor;
    const changed =
      answer.full ||
      answer.cursor !== before ||
      answer.leases.length + answer.endedLeases.length + answer.users.length + answer.removedUsers.length > 0;
    this.store.apply(answer);
    if (this.wasStale) this.log.info('contract fresh again');
    this.wasStale = false;
    if (changed || Date.now() - this.lastSavedAt > 60_000) {
      this.store.save();
      this.lastSavedAt = Date.now();
    }
    // The cursor moves on every pull; only a snapshot or a delta that carries something is worth a log line.
    const carries =
      answer.leases.length + answer.endedLeases.length + answer.users.length + answer.removedUsers.length > 0;
    if (changed && (answer.full || carries))
      this.log.info('contract applied', {
        full: answer.full,
        leases: answer.leases.length,
        endedLeases: answer.endedLeases.length,
        users: answer.users.length,
        removedUsers: answer.removedUsers.length,
      });
    this.plane.sweep();
    return answer.more ? 'more' : true;
  }

  /** Stops serving: listeners closed, what was counted cut to the spool and pushed once more if possible. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.cut();
    await this.plane.close();
    this.cut();
    this.store.save();
    await Promise.race([this.reporter.flush(true), new Promise((r) => setTimeout(r, 3000).unref())]);
  }
}
