// Deciding one connection from the contract held (docs/node-api.md, "Authorizing a connection"), plus the per-user
// limits. No I/O: this runs for every connection.
import type { ContractStore, Lease, User } from './contract.ts';
import type { RefusalCode } from './wire.ts';

/** Why a connection was refused: the wire protocol's codes (wire.ts); the egress ones (egress.ts) are decided once
 * the target is known, after the account and lease. */
export type { RefusalCode };

export const REFUSAL_STATUS: Record<RefusalCode, number> = {
  not_whitelisted: 407,
  bad_credentials: 407,
  exit_not_leased: 403,
  lease_expired: 454,
  account_suspended: 403,
  over_rate: 441,
  over_concurrency: 442,
  contract_stale: 503,
  target_invalid: 400,
  target_port_forbidden: 448,
  target_not_public: 450,
  target_blocked: 451,
  target_resolves_private: 452,
};

export function refusalReason(code: RefusalCode, clientIp: string): string {
  switch (code) {
    case 'not_whitelisted':
      return `您的IP ${clientIp} 不在白名单中：请在个人中心「白名单」添加该IP，或使用账号密码认证`;
    case 'bad_credentials':
      return '代理账号或密码错误：请在个人中心「API提取」查看代理账号密码';
    case 'exit_not_leased':
      return '该IP未分配给您的账号：请使用您提取或分配到的IP';
    case 'lease_expired':
      return '该IP的使用时长已到期：请重新提取';
    case 'account_suspended':
      return '账号已停用：请联系客服';
    case 'over_rate':
      return '新建连接过快：请降低请求频率';
    case 'over_concurrency':
      return '并发连接数超过套餐上限';
    case 'contract_stale':
      return '节点暂时无法确认授权，请稍后重试';
    case 'target_invalid':
      return '目标地址无效：请检查请求的域名、IP和端口';
    case 'target_port_forbidden':
      return '目标端口禁止访问：代理不开放该端口（如邮件端口25、465、587）';
    case 'target_not_public':
      return '目标地址禁止访问：代理不连接内网、本机及保留地址';
    case 'target_blocked':
      return '目标网站禁止访问：该域名或地址已被平台屏蔽';
    case 'target_resolves_private':
      return '目标域名解析到内网或保留地址，禁止访问';
  }
}

/** Per-user concurrency and new-connection rate (token bucket refilled at newPerSecond, burst newPerSecond). */
export class Limiter {
  private active = new Map<number, number>();
  private buckets = new Map<number, { tokens: number; at: number }>();

  concurrent(userId: number): number {
    return this.active.get(userId) ?? 0;
  }

  /** Takes one rate token; false when the user is over its rate. */
  takeToken(user: User, now: number): boolean {
    const rate = user.limits.newPerSecond;
    if (!(rate > 0)) return true;
    const b = this.buckets.get(user.userId) ?? { tokens: rate, at: now };
    b.tokens = Math.min(rate, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    this.buckets.set(user.userId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  acquire(userId: number): void {
    this.active.set(userId, (this.active.get(userId) ?? 0) + 1);
  }

  release(userId: number): void {
    const n = (this.active.get(userId) ?? 0) - 1;
    if (n > 0) this.active.set(userId, n);
    else this.active.delete(userId);
  }
}

export type Decision = { ok: true; user: User; lease: Lease } | { ok: false; code: RefusalCode; userId: number | null };

export type Attempt = {
  ip: string;
  port: number;
  clientIp: string;
  /** Present when the client sent credentials (even empty ones). */
  credentials?: { username: string; password: string } | undefined;
  /** A connection already counted (keep-alive request): limits are not taken again. */
  established?: boolean;
};

const STEP: Record<RefusalCode, number> = {
  contract_stale: 0,
  not_whitelisted: 1,
  bad_credentials: 1,
  account_suspended: 2,
  exit_not_leased: 3,
  lease_expired: 3,
  over_rate: 4,
  over_concurrency: 4,
  // Never produced by decide (the egress policy runs after it); listed for completeness.
  target_invalid: 5,
  target_port_forbidden: 5,
  target_not_public: 5,
  target_blocked: 5,
  target_resolves_private: 5,
};

export class Authorizer {
  store: ContractStore;
  limiter: Limiter;
  staleMs: number;

  constructor(store: ContractStore, limiter: Limiter, staleMs: number) {
    this.store = store;
    this.limiter = limiter;
    this.staleMs = staleMs;
  }

  isStale(localNow = Date.now()): boolean {
    return this.store.pulledAt === 0 || localNow - this.store.pulledAt > this.staleMs;
  }

  /** Steps 3-4 for one user: account, lease. */
  private leaseFor(user: User, a: Attempt): Decision {
    if (!user.active) return { ok: false, code: 'account_suspended', userId: user.userId };
    const { live, dead } = this.store.leasesOn(a.ip, a.port);
    const exclusiveOther = live.some((l) => l.exclusive && l.userId !== user.userId);
    const mine = live.find((l) => l.userId === user.userId);
    if (exclusiveOther || !mine) {
      const hadOne = !exclusiveOther && dead.some((l) => l.userId === user.userId);
      return { ok: false, code: hadOne ? 'lease_expired' : 'exit_not_leased', userId: user.userId };
    }
    return { ok: true, user, lease: mine };
  }

  /**
   * Whether an attempt would be refused only for want of a live lease on the exit, for a known and active user (the
   * lease may be in the next pull). Reads the contract only: no rate token, no concurrency slot.
   */
  lacksLeaseOnly(a: Attempt): boolean {
    if (this.isStale()) return false;
    const candidates = a.credentials
      ? [this.store.byCredentials(a.credentials.username, a.credentials.password)].filter((u): u is User => !!u)
      : this.store.whiteListed(a.clientIp, this.store.now());
    const decisions = candidates.map((u) => this.leaseFor(u, a));
    return (
      decisions.length > 0 &&
      decisions.every((d) => !d.ok) &&
      decisions.some((d) => !d.ok && (d.code === 'exit_not_leased' || d.code === 'lease_expired'))
    );
  }

  /** Decides an attempt. On success the caller owns one concurrency slot (release it when the connection ends). */
  decide(a: Attempt): Decision {
    if (this.isStale()) return { ok: false, code: 'contract_stale', userId: null };
    const now = this.store.now();
    let candidates: User[];
    if (a.credentials) {
      const u = this.store.byCredentials(a.credentials.username, a.credentials.password);
      if (!u) return { ok: false, code: 'bad_credentials', userId: null };
      candidates = [u];
    } else {
      candidates = this.store.whiteListed(a.clientIp, now);
      if (candidates.length === 0) return { ok: false, code: 'not_whitelisted', userId: null };
    }
    let best: Decision | null = null;
    for (const u of candidates) {
      let d = this.leaseFor(u, a);
      if (d.ok && !a.established) {
        if (u.limits.maxConcurrent > 0 && this.limiter.concurrent(u.userId) >= u.limits.maxConcurrent)
          d = { ok: false, code: 'over_concurrency', userId: u.userId };
        else if (!this.limiter.takeToken(u, Date.now())) d = { ok: false, code: 'over_rate', userId: u.userId };
      }
      if (d.ok) {
        if (!a.established) this.limiter.acquire(u.userId);
        return d;
      }
      if (!best || (!best.ok && STEP[d.code] > STEP[best.code])) best = d;
    }
    const refusal = best as Extract<Decision, { ok: false }>;
    return candidates.length === 1 ? refusal : { ...refusal, userId: null };
  }
}
