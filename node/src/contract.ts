// The contract a node enforces: leases, users (white lists, proxy accounts, limits), pulled from the portal as full
// snapshots and deltas (docs/node-api.md). Everything here is in memory and answers without I/O: it is the hot path.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type EgressRules, NO_EGRESS_RULES } from './egress.ts';
import type { ContractAnswer, ContractLease, ContractUser } from './wire.ts';

// The contract's shapes are the node wire protocol's (wire.ts, shared with the portal).
export type Lease = ContractLease;
export type User = ContractUser;

const VERIFIER = /^hs1\$([0-9a-f]{32})\$([0-9a-f]{64})$/;

/** Whether `username:password` matches a user's verifier (or legacy digest), in constant time. */
export function passwordMatches(u: User, username: string, password: string): boolean {
  const m = u.passwordVerifier ? VERIFIER.exec(u.passwordVerifier) : null;
  if (m) {
    const given = createHmac('sha256', Buffer.from(m[1] as string, 'hex'))
      .update(`${username}:${password}`)
      .digest();
    return timingSafeEqual(given, Buffer.from(m[2] as string, 'hex'));
  }
  if (u.passwordVerifier === undefined && u.passwordSha256 && /^[0-9a-f]{64}$/i.test(u.passwordSha256)) {
    const given = createHash('sha256').update(`${username}:${password}`).digest();
    return timingSafeEqual(given, Buffer.from(u.passwordSha256, 'hex'));
  }
  return false;
}

/** What the node remembers between restarts. */
type Persisted = {
  cursor: string | null;
  pulledAt: number;
  clockOffset: number;
  leases: Lease[];
  ended: [string, { lease: Lease; endedAt: number }][];
  users: User[];
  egress?: EgressRules;
};

/** Leases that ended stay known this long, so a late client hears `lease_expired` rather than `exit_not_leased`. */
const ENDED_MEMORY_MS = 24 * 3_600_000;

export const normalizeIp = (ip: string | undefined): string =>
  (ip ?? '').startsWith('::ffff:') ? (ip ?? '').slice(7) : (ip ?? '');

export const exitKey = (ip: string, port: number) => `${ip}:${port}`;

export class ContractStore {
  cursor: string | null = null;
  /** Local clock of the last successful pull (0: never). */
  pulledAt = 0;
  /** serverTime − local clock at the last pull: leases expire by the portal's clock. */
  clockOffset = 0;
  readonly leases = new Map<string, Lease>();
  readonly ended = new Map<string, { lease: Lease; endedAt: number }>();
  readonly users = new Map<number, User>();
  /** The operator's egress rules in force (egress.ts). */
  egress: EgressRules = NO_EGRESS_RULES;
  private byExit = new Map<string, Set<string>>();
  private byWhiteIp = new Map<string, Set<number>>();
  private byUsername = new Map<string, number>();
  private file: string | null;

  constructor(file: string | null = null) {
    this.file = file;
  }

  now(): number {
    return Date.now() + this.clockOffset;
  }

  /** Applies a pull's answer; a full snapshot replaces everything held. */
  apply(answer: ContractAnswer, localNow = Date.now()): void {
    const serverNow = answer.serverTime || localNow;
    if (answer.full) {
      for (const [id, lease] of this.leases)
        if (!answer.leases.some((l) => l.id === id)) this.ended.set(id, { lease, endedAt: serverNow });
      this.leases.clear();
      this.users.clear();
    }
    for (const l of answer.leases) {
      this.leases.set(l.id, l);
      this.ended.delete(l.id);
    }
    for (const id of answer.endedLeases ?? []) {
      const lease = this.leases.get(id);
      if (lease) this.ended.set(id, { lease, endedAt: serverNow });
      this.leases.delete(id);
    }
    if (answer.egress) this.egress = { ...NO_EGRESS_RULES, ...answer.egress };
    else if (answer.full) this.egress = NO_EGRESS_RULES;
    for (const u of answer.users) this.users.set(u.userId, u);
    for (const id of answer.removedUsers ?? []) this.users.delete(id);
    for (const [id, e] of this.ended) if (serverNow - e.endedAt > ENDED_MEMORY_MS) this.ended.delete(id);
    for (const [id, l] of this.leases)
      if (serverNow - l.expiresAt > ENDED_MEMORY_MS) {
        this.leases.delete(id);
      }
    this.cursor = answer.cursor;
    this.pulledAt = localNow;
    this.clockOffset = answer.serverTime ? answer.serverTime - localNow : 0;
    this.reindex();
  }

  private reindex(): void {
    this.byExit.clear();
    this.byWhiteIp.clear();
    this.byUsername.clear();
    const addExit = (key: string, id: string) => {
      const s = this.byExit.get(key) ?? new Set<string>();
      this.byExit.set(key, s);
      s.add(id);
    };
    for (const l of this.leases.values()) addExit(exitKey(l.ip, l.port), l.id);
    for (const [id, e] of this.ended) addExit(exitKey(e.lease.ip, e.lease.port), id);
    for (const u of this.users.values()) {
      for (const w of u.whiteList) {
        const s = this.byWhiteIp.get(w.ip) ?? new Set<number>();
        this.byWhiteIp.set(w.ip, s);
        s.add(u.userId);
      }
      if (u.username) this.byUsername.set(u.username, u.userId);
    }
  }

  /** Users whose (unexpired) white list holds the client IP. */
  whiteListed(clientIp: string, now: number): User[] {
    const ids = this.byWhiteIp.get(clientIp);
    if (!ids) return [];
    const out: User[] = [];
    for (const id of ids) {
      const u = this.users.get(id);
      if (u?.whiteList.some((w) => w.ip === clientIp && (w.expiresAt === 0 || w.expiresAt > now))) out.push(u);
    }
    return out.sort((a, b) => a.userId - b.userId);
  }

  /**
   * The user whose proxy account matches, or null: one HMAC of the given password under the user's salt, compared in
   * constant time with the verifier (the node never holds the password; docs/decisions/200).
   */
  byCredentials(username: string, password: string): User | null {
    const id = this.byUsername.get(username);
    const u = id === undefined ? undefined : this.users.get(id);
    return u && passwordMatches(u, username, password) ? u : null;
  }

  /** Live and ended leases on an exit. */
  leasesOn(ip: string, port: number): { live: Lease[]; dead: Lease[] } {
    const ids = this.byExit.get(exitKey(ip, port));
    const live: Lease[] = [];
    const dead: Lease[] = [];
    if (!ids) return { live, dead };
    const now = this.now();
    for (const id of ids) {
      const l = this.leases.get(id);
      if (l && l.startsAt <= now && l.expiresAt > now) live.push(l);
      else if (l) dead.push(l);
      else {
        const e = this.ended.get(id);
        if (e) dead.push(e.lease);
      }
    }
    return { live, dead };
  }

  /** Whether a lease is still live (known, not ended, not expired). */
  isLive(leaseId: string): boolean {
    const l = this.leases.get(leaseId);
    const now = this.now();
    return !!l && l.startsAt <= now && l.expiresAt > now;
  }

  save(): void {
    if (!this.file) return;
    const data: Persisted = {
      cursor: this.cursor,
      pulledAt: this.pulledAt,
      clockOffset: this.clockOffset,
      leases: [...this.leases.values()],
      ended: [...this.ended],
      users: [...this.users.values()],
      egress: this.egress,
    };
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, this.file);
  }

  /** Loads the persisted contract; false when there is none (or it is unreadable). */
  load(): boolean {
    if (!this.file) return false;
    let data: Persisted;
    try {
      data = JSON.parse(readFileSync(this.file, 'utf8')) as Persisted;
    } catch {
      return false;
    }
    this.cursor = data.cursor;
    this.pulledAt = data.pulledAt;
    this.clockOffset = data.clockOffset;
    this.leases.clear();
    this.ended.clear();
    this.users.clear();
    for (const l of data.leases) this.leases.set(l.id, l);
    for (const [id, e] of data.ended) this.ended.set(id, e);
    for (const u of data.users) this.users.set(u.userId, u);
    this.egress = { ...NO_EGRESS_RULES, ...data.egress };
    // Saved from a portal that sent legacy digests: ask for a full snapshot, so every user comes back with a verifier.
    if (data.users.some((u) => u.username && u.passwordVerifier === undefined)) this.cursor = null;
    this.reindex();
    return true;
  }
}
