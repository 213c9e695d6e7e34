// The node's configuration file (JSON): where the portal is, who this node is, and the exits it serves.
// See docs/node-operations.md for every field.
import { readFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { dirname, resolve } from 'node:path';
import type { EgressAllow } from './egress.ts';

export type Pool = 10 | 30 | 40;
export type Protocol = 'http' | 'https' | 'socks5';

export type ExitConfig = {
  ip: string;
  port: number;
  pool: Pool;
  protocols: Protocol[];
  province: string;
  city: string;
  carrier: string;
  /** When the address leaves service (epoch ms), when fixed in the config. */
  expiresAt: number | null;
  /** Otherwise a rolling lifetime: every heartbeat reports now + ttlMs. */
  ttlMs: number | null;
};

/** What a heartbeat reports as the exit's `expiresAt`. */
export const exitExpiresAt = (e: ExitConfig, now = Date.now()): number => e.expiresAt ?? now + (e.ttlMs ?? 0);

const CARRIERS = ['电信', '联通', '移动'];

export type NodeConfig = {
  portalUrl: string;
  nodeId: number;
  secret: string;
  stateDir: string;
  /** Grace for established connections after their lease ends. */
  graceMs: number;
  /** How long a known user's new connection may wait for the next contract pull when the exit is not yet leased to
   * them (an extraction a moment ago); 0 refuses at once. */
  leaseWaitMs: number;
  /** A client connection not authorized this long after accept is closed (0: no deadline); at most
   * maxOpenersPerSource such connections per client address at once, more are closed at accept (0: no cap). */
  handshakeMs: number;
  maxOpenersPerSource: number;
  /** How long the last good contract is trusted without a successful pull. */
  staleMs: number;
  /** Usage and refusals are cut into batches this often. */
  flushMs: number;
  /** Intervals until the portal tells its own (heartbeat answer). */
  heartbeatMs: number;
  pullMs: number;
  /** Spool directory cap in bytes; past it the oldest refusal batches, then usage batches, are dropped. */
  spoolMaxBytes: number;
  /** Memory all tunnels together may hold in read buffers grown past 64 KiB (tunnel.ts), in bytes. */
  tunnelBufferBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Development only (YUNSHU_NODE_DEV=1): targets let through the egress address check (egress.ts). */
  egressAllow: EgressAllow[];
  version: string;
  exits: ExitConfig[];
};

export const NODE_VERSION = 'yunshu-node/1.0.0';
const DAY = 86_400_000;

export class ConfigError extends Error {}

function fail(msg: string): never {
  throw new ConfigError(msg);
}

/** Reads `KEY=value` from a dotenv-style file (comments and blank lines ignored). */
export function readDotenv(file: string, key: string): string | undefined {
  const text = readFileSync(file, 'utf8');
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && m[1] === key) return (m[2] ?? '').replace(/^(['"])(.*)\1$/, '$2');
  }
  return undefined;
}

function secretFrom(raw: Record<string, unknown>, base: string, env: NodeJS.ProcessEnv): string {
  if (typeof raw.secret === 'string' && raw.secret) return raw.secret;
  const envName = typeof raw.secretEnv === 'string' ? raw.secretEnv : 'YUNSHU_NODE_SECRET';
  if (env[envName]) return env[envName] as string;
  if (typeof raw.secretFile === 'string') {
    const file = resolve(base, raw.secretFile);
    let value: string | undefined;
    try {
      value = typeof raw.secretKey === 'string' ? readDotenv(file, raw.secretKey) : readFileSync(file, 'utf8').trim();
    } catch (e) {
      fail(`secretFile ${file} cannot be read: ${(e as Error).message}`);
    }
    if (value) return value;
    fail(`secretFile ${file} has no ${typeof raw.secretKey === 'string' ? raw.secretKey : 'secret'}`);
  }
  return fail(`no secret: set "secret", the environment variable ${envName}, or "secretFile"`);
}

const num = (v: unknown, name: string, def?: number): number => {
  if (v === undefined && def !== undefined) return def;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(`${name} must be a non-negative number`);
  return v;
};

/**
 * `egressAllow`: "ip:port", "[ipv6]:port" or "ip:*" entries that pass the egress address check (a local portal, the
 * tests' local targets). Refused unless YUNSHU_NODE_DEV=1: a production node never reaches private addresses.
 */
function egressAllowFrom(v: unknown, env: NodeJS.ProcessEnv): EgressAllow[] {
  if (v === undefined) return [];
  if (env.YUNSHU_NODE_DEV !== '1')
    fail('egressAllow is a development-only setting: it is refused unless YUNSHU_NODE_DEV=1 (npm start sets it)');
  if (!Array.isArray(v)) fail('egressAllow must be a list of "ip:port" entries');
  return v.map((e: unknown, i: number) => {
    const m = typeof e === 'string' ? /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+)):(\*|\d{1,5})$/.exec(e) : null;
    const ip = m ? (m[1] ?? m[2] ?? '') : '';
    const port = m?.[3] === '*' ? null : Number(m?.[3]);
    if (!m || !(isIPv4(ip) || isIPv6(ip)) || (port !== null && (port < 1 || port > 65535)))
      fail(`egressAllow[${i}] must be "ip:port", "[ipv6]:port" or "ip:*"`);
    return { ip, port };
  });
}

export function parseConfig(raw: unknown, base = process.cwd(), env: NodeJS.ProcessEnv = process.env): NodeConfig {
  if (!raw || typeof raw !== 'object') fail('config must be a JSON object');
  const r = { ...(raw as Record<string, unknown>) };
  // YUNSHU_NODE_PORTAL overrides portalUrl (npm start passes the port it serves on).
  if (env.YUNSHU_NODE_PORTAL) r.portalUrl = env.YUNSHU_NODE_PORTAL;
  if (typeof r.portalUrl !== 'string' || !/^https?:\/\/[^/]+/.test(r.portalUrl))
    fail('portalUrl must be an http(s) URL');
  const nodeId = num(r.nodeId, 'nodeId');
  if (!Number.isInteger(nodeId) || nodeId < 1) fail('nodeId must be a positive integer');
  if (!Array.isArray(r.exits) || r.exits.length === 0) fail('exits must list at least one exit');
  const seen = new Set<string>();
  const exits = r.exits.map((e: unknown, i: number): ExitConfig => {
    const x = (e ?? {}) as Record<string, unknown>;
    const at = `exits[${i}]`;
    if (typeof x.ip !== 'string' || !(isIPv4(x.ip) || isIPv6(x.ip))) fail(`${at}.ip must be an IP address`);
    const port = num(x.port, `${at}.port`);
    if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`${at}.port must be 1-65535`);
    const pool = num(x.pool, `${at}.pool`, 10);
    if (pool !== 10 && pool !== 30 && pool !== 40) fail(`${at}.pool must be 10, 30 or 40`);
    const protocols = (x.protocols ?? ['http', 'https', 'socks5']) as unknown[];
    if (!Array.isArray(protocols) || protocols.some((p) => p !== 'http' && p !== 'https' && p !== 'socks5'))
      fail(`${at}.protocols must be a list of http, https, socks5`);
    for (const k of ['province', 'city'])
      if (typeof x[k] !== 'string' || [...x[k]].length < 2 || [...x[k]].length > 20)
        fail(`${at}.${k} must be 2-20 characters (e.g. 广东省, 深圳市)`);
    if (typeof x.carrier !== 'string' || !CARRIERS.includes(x.carrier))
      fail(`${at}.carrier must be 电信, 联通 or 移动`);
    let expiresAt: number | null = null;
    let ttlMs: number | null = null;
    if (x.expiresAt !== undefined) expiresAt = num(x.expiresAt, `${at}.expiresAt`);
    else if (x.ttlMs !== undefined) ttlMs = num(x.ttlMs, `${at}.ttlMs`);
    else ttlMs = num(x.ttlDays, `${at}.ttlDays`, 90) * DAY;
    const key = `${x.ip}:${port}`;
    if (seen.has(key)) fail(`${at}: ${key} is listed twice`);
    seen.add(key);
    return {
      ip: x.ip,
      port,
      pool: pool as Pool,
      protocols: protocols as Protocol[],
      province: x.province as string,
      city: x.city as string,
      carrier: x.carrier as string,
      expiresAt,
      ttlMs,
    };
  });
  const level = r.logLevel ?? 'info';
  if (level !== 'debug' && level !== 'info' && level !== 'warn' && level !== 'error')
    fail('logLevel must be debug, info, warn or error');
  return {
    portalUrl: r.portalUrl.replace(/\/+$/, ''),
    nodeId,
    secret: secretFrom(r, base, env),
    stateDir: resolve(base, typeof r.stateDir === 'string' ? r.stateDir : 'state'),
    graceMs: num(r.graceMs, 'graceMs', 60_000),
    leaseWaitMs: num(r.leaseWaitMs, 'leaseWaitMs', 3_000),
    handshakeMs: num(r.handshakeMs, 'handshakeMs', 5_000),
    maxOpenersPerSource: num(r.maxOpenersPerSource, 'maxOpenersPerSource', 1000),
    staleMs: num(r.staleMs, 'staleMs', 600_000),
    flushMs: num(r.flushMs, 'flushMs', 10_000),
    heartbeatMs: num(r.heartbeatMs, 'heartbeatMs', 30_000),
    pullMs: num(r.pullMs, 'pullMs', 5_000),
    spoolMaxBytes: num(r.spoolMaxBytes, 'spoolMaxBytes', 64 * 1024 * 1024),
    tunnelBufferBytes: num(r.tunnelBufferMiB, 'tunnelBufferMiB', 256) * 1024 * 1024,
    logLevel: level,
    egressAllow: egressAllowFrom(r.egressAllow, env),
    version: NODE_VERSION,
    exits,
  };
}

export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): NodeConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`cannot read config ${file}: ${(e as Error).message}`);
  }
  return parseConfig(raw, dirname(resolve(file)), env);
}
