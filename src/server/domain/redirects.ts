// Path redirects: the seed's permanent 301 table, plus operator rules stored in D1 and cached in KV with a TTL.
// Operator rules never apply to the console, login, personal-centre, API, node or payment paths, point only to a
// same-site path or to an https host an admin allowed, and refuse every form a browser would follow off-site
// (docs/decisions/198).
import { AppError } from '../../lib/errors';
import { hasControlChar } from '../../lib/safe-redirect';
import type { AuditActor, AuditWrite } from '../db/console-audit';
import { upsertSettingStatement } from '../db/console-content';
import { deleteRedirect, findRedirect, listRedirects, type RedirectRule, upsertRedirect } from '../db/redirects';
import { readSetting } from '../db/site-content';
import { auditedWrite } from './console-audit';

/** Seed section 2: permanent redirects from the old site's URLs. */
export const STATIC_REDIRECTS: Readonly<Record<string, string>> = {
  '/getApi': '/getProxy/10',
  '/getApi/getApi.html': '/getProxy/10',
  '/doc': '/getProxy/10#api',
  '/doc/doc.html': '/getProxy/10#api',
  '/meal/buy.html': '/buy?type=10',
  '/buy/buy.html': '/buy?type=10',
  '/my/user/index': '/personalCenter',
  '/my/proxy/index': '/personalCenter/packageManager/10',
  '/my/longIp/index': '/personalCenter/ipManager/30',
  '/my/order/index': '/personalCenter/orderManager',
  '/my/proxy/rpc': '/personalCenter/getAgent/record',
  '/my/gift/index': '/personalCenter/couponManager',
  '/my/whiteIp/index': '/personalCenter/getAgent/whiteList',
};

export const REDIRECT_CACHE_TTL_SECONDS = 300;
const cacheKey = (path: string) => `redirect:v1:${path}`;

/** Paths (and everything under them, any letter case, percent-decoded) an operator rule never applies to. */
export const PROTECTED_PREFIXES: readonly string[] = [
  '/admin',
  '/login',
  '/register',
  '/personalcenter',
  '/api',
  '/node',
  '/extract',
  '/pay',
  '/assets',
  '/rsc',
  '/builds',
  '/code',
  '/dev',
];

/** The site setting holding the https hosts redirects may point to (a JSON array of host names). */
export const REDIRECT_HOSTS_SETTING = 'redirect_allowed_hosts';
export const REDIRECT_HOSTS_MAX = 50;

/** Percent-decoding repeated until stable (at most 4 rounds); null when it is not valid UTF-8 percent-encoding. */
function decodedFully(s: string): string | null {
  let cur = s;
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(cur);
    } catch {
      return null;
    }
    if (next === cur) return cur;
    cur = next;
  }
  return cur;
}

// Whitespace, control characters and backslashes: browsers strip or turn them into slashes (/\host is //host).
const unsafeChars = (s: string): boolean => /[\s\\]/.test(s) || hasControlChar(s);

/** True for a path no operator rule may redirect (compared decoded, in lower case, with runs of slashes as one). */
export function isProtectedPath(path: string): boolean {
  const p = (decodedFully(path) ?? path).toLowerCase().replace(/[\\/]+/g, '/');
  return PROTECTED_PREFIXES.some((prefix) => p === prefix || p.startsWith(prefix));
}

/** A host name as the allow-list keeps it: lower case, a valid DNS name of at least two labels. */
export function normalizeRedirectHost(host: string): string | null {
  const h = host.trim().toLowerCase();
  return /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(h) ? h : null;
}

/**
 * Why a redirect target is refused (a zh-CN sentence), or null: a same-site path (starting with one slash, never
 * followed by a slash or backslash, even percent-encoded; no whitespace, control character or backslash anywhere,
 * even percent-encoded), or an https URL without credentials or port whose host is on the allow-list.
 */
export function redirectTargetProblem(target: string, allowedHosts: readonly string[]): string | null {
  const decoded = decodedFully(target);
  if (decoded === null) return '目标地址的百分号编码无效';
  if (unsafeChars(target) || unsafeChars(decoded)) return '目标地址不能包含空白、控制字符或反斜杠';
  if (target.startsWith('/')) {
    if (/^\/[\\/]/.test(target) || /^\/[\\/]/.test(decoded)) return '站内路径不能以 // 或 /\\ 开头';
    return null;
  }
  if (!/^https:\/\/[^/?#]+([/?#]|$)/.test(target)) return '目标必须是站内路径或 https 地址';
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return '目标地址无效';
  }
  if (url.username || url.password || url.port) return '目标地址不能包含用户名、密码或端口';
  if (!allowedHosts.includes(url.hostname.toLowerCase())) return `域名 ${url.hostname} 不在管理员允许的跳转域名中`;
  return null;
}

/** The https hosts redirects may point to (the admin's allow-list; empty: same-site paths only). */
export async function redirectAllowedHosts(db: D1Database): Promise<string[]> {
  const raw = await readSetting(db, REDIRECT_HOSTS_SETTING);
  if (!raw) return [];
  try {
    const list = JSON.parse(raw) as unknown;
    return Array.isArray(list) ? list.filter((h): h is string => typeof h === 'string') : [];
  } catch {
    return [];
  }
}

/** Replace the allow-list (admin, audited) and drop every cached redirect answer, so a removed host stops at once. */
export async function saveRedirectAllowedHosts(
  db: D1Database,
  kv: KVNamespace,
  actor: AuditActor,
  input: { hosts: string[]; reason: string },
): Promise<{ hosts: string[] }> {
  const hosts: string[] = [];
  for (const h of input.hosts) {
    const host = normalizeRedirectHost(h);
    if (!host) throw new AppError('redirectHostInvalid', { detail: h.slice(0, 80) });
    if (!hosts.includes(host)) hosts.push(host);
  }
  const before = await redirectAllowedHosts(db);
  await auditedWrite(
    db,
    actor,
    {
      action: 'Redirect.AllowedHostsSave',
      target: `setting:${REDIRECT_HOSTS_SETTING}`,
      before,
      after: hosts,
      reason: input.reason,
    },
    [upsertSettingStatement(db, REDIRECT_HOSTS_SETTING, JSON.stringify(hosts), actor.now)],
    { requireChange: true },
  );
  await Promise.all((await listRedirects(db)).map((r) => kv.delete(cacheKey(r.fromPath))));
  return { hosts };
}

interface CachedRedirect {
  to: string | null;
  status?: number;
}

/** Merge the target with the request's query: the target's own query wins; the fragment stays last. */
export function redirectLocation(target: string, search: string): string {
  if (!search || target.includes('?')) return target;
  const hash = target.indexOf('#');
  return hash < 0 ? `${target}${search}` : `${target.slice(0, hash)}${search}${target.slice(hash)}`;
}

/** Look a path up: KV first (positive and negative answers cached), then D1. */
export async function lookupRedirect(
  db: D1Database,
  kv: KVNamespace,
  path: string,
): Promise<{ to: string; status: number } | null> {
  if (isProtectedPath(path)) return null;
  const cached = await kv.get<CachedRedirect>(cacheKey(path), 'json');
  if (cached) return cached.to ? { to: cached.to, status: cached.status ?? 301 } : null;
  const found = await findRedirect(db, path);
  // A rule stored before these checks existed, or pointing to a host since removed from the allow-list, is not applied.
  const usable =
    found && !isProtectedPath(found.fromPath)
      ? redirectTargetProblem(found.toPath, found.toPath.startsWith('/') ? [] : await redirectAllowedHosts(db)) === null
      : false;
  const rule = usable ? found : null;
  const value: CachedRedirect = rule ? { to: rule.toPath, status: rule.status } : { to: null };
  await kv.put(cacheKey(path), JSON.stringify(value), { expirationTtl: REDIRECT_CACHE_TTL_SECONDS });
  return rule ? { to: rule.toPath, status: rule.status } : null;
}

/** Create or change a rule (refused for protected paths and unsafe or unlisted targets) and drop its cached answer. */
export async function saveRedirectRule(
  db: D1Database,
  kv: KVNamespace,
  rule: RedirectRule,
  audit?: AuditWrite,
): Promise<void> {
  if (Object.hasOwn(STATIC_REDIRECTS, rule.fromPath) || isProtectedPath(rule.fromPath)) {
    throw new AppError('redirectPathProtected');
  }
  const problem = redirectTargetProblem(rule.toPath, rule.toPath.startsWith('/') ? [] : await redirectAllowedHosts(db));
  if (problem) throw new AppError('redirectTargetRefused', { detail: problem });
  await upsertRedirect(db, rule, audit);
  await kv.delete(cacheKey(rule.fromPath));
}

/** Remove a rule and drop its cached answer. */
export async function removeRedirectRule(
  db: D1Database,
  kv: KVNamespace,
  fromPath: string,
  audit?: AuditWrite,
): Promise<boolean> {
  const existed = await deleteRedirect(db, fromPath, audit);
  await kv.delete(cacheKey(fromPath));
  return existed;
}
