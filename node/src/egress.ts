// The egress policy (docs/node-api.md, "Egress policy"; decision 193): which targets an exit may connect to. Decided
// after name resolution for HTTP, CONNECT and SOCKS5 alike, and the caller connects to the very address checked here
// (never the name again), so a name that resolves, or later re-resolves, to a private address cannot get through.
// - never: loopback, RFC 1918, CGNAT, link-local (cloud metadata), multicast, reserved, unspecified and broadcast
//   ranges, their IPv6 forms (IPv4 inside IPv4-mapped, NAT64 and 6to4 addresses is checked as IPv4), and the node
//   host's own addresses; only what ipaddr.js classifies as `unicast` is public;
// - ports refused by default: SMTP 25, 465, 587, unless the lease's product type is allowed them by the operator;
// - the operator's rules pushed in the contract: blocked domain suffixes, CIDRs and ports;
// - a development-only allowance (config `egressAllow`, refused outside development) lets named ip:port pairs
//   through the address check (the local portal for the README's demo lines, the tests' local targets).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { ContractEgress } from './wire.ts';

/** Operator rules, carried in the contract answer (`egress`; the wire protocol, wire.ts). */
export type EgressRules = ContractEgress;

export const NO_EGRESS_RULES: EgressRules = {
  blockedDomains: [],
  blockedCidrs: [],
  blockedPorts: [],
  smtpProductTypes: [],
};

export const SMTP_PORTS = [25, 465, 587];

export type EgressRefusal =
  | 'target_invalid'
  | 'target_port_forbidden'
  | 'target_not_public'
  | 'target_resolves_private'
  | 'target_blocked';

/** An allowance entry: an address and a port (null: every port). */
export type EgressAllow = { ip: string; port: number | null };

export type EgressVerdict =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; code: EgressRefusal }
  /** The name could not be resolved: a connection failure (502, SOCKS host unreachable), not a refusal. */
  | { ok: false; code: 'unresolved'; error: string };

type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const HOSTNAME = /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?$/i;
const OWN_ADDRESSES_TTL_MS = 60_000;

/** An address as ipaddr.js sees it, with IPv4 carried inside IPv6 (mapped, NAT64, 6to4) taken out. */
function unwrap(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let a: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    a = ipaddr.parse(address.replace(/%.*$/, ''));
  } catch {
    return null;
  }
  if (a.kind() === 'ipv6') {
    const v6 = a as ipaddr.IPv6;
    const r = v6.range();
    const b = v6.toByteArray();
    if (r === 'ipv4Mapped') return v6.toIPv4Address();
    // NAT64 well-known prefix 64:ff9b::/96 and SIIT (RFC 6145) carry the IPv4 address in the last 32 bits; the
    // local-use NAT64 prefix 64:ff9b:1::/48 and Teredo stay as they are (not unicast: refused).
    if (r === 'rfc6145' || (r === 'rfc6052' && b.slice(4, 12).every((x) => x === 0)))
      return new ipaddr.IPv4(b.slice(12, 16));
    if (r === '6to4') return new ipaddr.IPv4(b.slice(2, 6));
  }
  return a;
}

/** The canonical text of an address (IPv4 out of its IPv6 wrappings), or null when it is not an address. */
export function canonicalAddress(address: string): string | null {
  return unwrap(address)?.toNormalizedString() ?? null;
}

/** Whether an address is public unicast by ipaddr.js's ranges (after unwrapping IPv4 carried in IPv6). */
export function isPublicAddress(address: string): boolean {
  const a = unwrap(address);
  return !!a && a.range() === 'unicast';
}

function parseCidr(c: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    return c.includes('/') ? ipaddr.parseCIDR(c) : ((a) => [a, a.kind() === 'ipv4' ? 32 : 128])(ipaddr.parse(c));
  } catch {
    return null;
  }
}

/** Whether an address lies in a CIDR (IPv4 CIDRs also match IPv4 carried in IPv6). */
function inCidr(address: ipaddr.IPv4 | ipaddr.IPv6, cidr: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  return address.kind() === cidr[0].kind() && address.match(cidr);
}

/** A host name lower-cased, without its trailing dot or IPv6 brackets. */
export const normalizeHost = (host: string): string =>
  host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();

/** Whether a domain rule (suffix) covers a host name: the name itself or any name under it. */
export function domainBlocked(host: string, domains: string[]): boolean {
  const h = normalizeHost(host);
  return domains.some((d) => {
    const s = normalizeHost(d.replace(/^\*?\./, ''));
    return s !== '' && (h === s || h.endsWith(`.${s}`));
  });
}

export class EgressPolicy {
  private rules: () => EgressRules;
  private allow: EgressAllow[];
  private resolve: Resolver;
  private own: { at: number; set: Set<string> } = { at: 0, set: new Set() };
  private ownAddresses: () => string[];

  constructor(opts: {
    /** The operator rules in force (read at every check: a pull replaces them). */
    rules: () => EgressRules;
    allow?: EgressAllow[];
    resolve?: Resolver;
    ownAddresses?: () => string[];
  }) {
    this.rules = opts.rules;
    this.allow = (opts.allow ?? []).map((a) => ({ ip: canonicalAddress(a.ip) ?? a.ip, port: a.port }));
    this.resolve = opts.resolve ?? ((host) => lookup(host, { all: true }));
    this.ownAddresses =
      opts.ownAddresses ??
      (() =>
        Object.values(networkInterfaces())
          .flat()
          .map((i) => i?.address ?? ''));
  }

  private isOwn(canonical: string, now: number): boolean {
    if (now - this.own.at > OWN_ADDRESSES_TTL_MS) {
      const set = new Set<string>();
      for (const a of this.ownAddresses()) {
        const c = canonicalAddress(a);
        if (c) set.add(c);
      }
      this.own = { at: now, set };
    }
    return this.own.set.has(canonical);
  }

  private allowed(canonical: string, port: number): boolean {
    return this.allow.some((a) => a.ip === canonical && (a.port === null || a.port === port));
  }

  /** The refusal for one resolved address, or null when it may be reached. */
  private addressRefusal(address: string, port: number, rules: EgressRules, viaName: boolean): EgressRefusal | null {
    const a = unwrap(address);
    if (!a) return 'target_invalid';
    const canonical = a.toNormalizedString();
    for (const c of rules.blockedCidrs) {
      const cidr = parseCidr(c);
      if (cidr && inCidr(a, cidr)) return 'target_blocked';
    }
    if (this.allowed(canonical, port)) return null;
    if (a.range() !== 'unicast' || this.isOwn(canonical, Date.now()))
      return viaName ? 'target_resolves_private' : 'target_not_public';
    return null;
  }

  /**
   * Decides a target. `family` is the exit's address family (the outgoing connection is bound to the exit, so only
   * addresses of that family can be reached); `productType` is the lease's (SMTP allowance), null when unknown.
   */
  async check(
    host: string,
    port: number,
    opts: { family?: 4 | 6; productType?: number | null } = {},
  ): Promise<EgressVerdict> {
    const rules = this.rules();
    const name = normalizeHost(host);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, code: 'target_invalid' };
    const literal = isIP(name) !== 0;
    if (!literal && !HOSTNAME.test(name)) return { ok: false, code: 'target_invalid' };
    if (rules.blockedPorts.includes(port)) return { ok: false, code: 'target_port_forbidden' };
    if (SMTP_PORTS.includes(port) && !(opts.productType != null && rules.smtpProductTypes.includes(opts.productType)))
      return { ok: false, code: 'target_port_forbidden' };
    if (!literal && domainBlocked(name, rules.blockedDomains)) return { ok: false, code: 'target_blocked' };
    let addresses: { address: string; family: number }[];
    if (literal) addresses = [{ address: name, family: isIP(name) }];
    else {
      try {
        addresses = await this.resolve(name);
      } catch (e) {
        return { ok: false, code: 'unresolved', error: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
      }
      if (addresses.length === 0) return { ok: false, code: 'unresolved', error: 'ENOTFOUND' };
    }
    // Every address is checked; the first one that passes (of the exit's family when there is one) is the one the
    // caller connects to. A refusal names the first address's reason.
    let first: EgressRefusal | null = null;
    let pick: { address: string; family: 4 | 6 } | null = null;
    for (const a of addresses) {
      const refusal = this.addressRefusal(a.address, port, rules, !literal);
      if (refusal) {
        first ??= refusal;
        continue;
      }
      // An IPv4-mapped address is connected to as IPv4 (it is that host; the exit binds an IPv4 address); every other
      // address is connected to as given.
      const parsed = ipaddr.process(a.address.replace(/%.*$/, ''));
      const candidate =
        parsed.kind() === 'ipv4'
          ? { address: parsed.toString(), family: 4 as const }
          : { address: parsed.toString(), family: 6 as const };
      if (!pick || (opts.family && pick.family !== opts.family && candidate.family === opts.family)) pick = candidate;
    }
    if (pick) return { ok: true, ...pick };
    return { ok: false, code: first ?? 'target_not_public' };
  }
}
