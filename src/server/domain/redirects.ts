// Path redirects: the seed's permanent 301 table, plus operator rules stored in D1 and cached in KV with a TTL.
import { deleteRedirect, findRedirect, type RedirectRule, upsertRedirect } from '../db/redirects';
import type { AuditWrite } from '../db/operators-audit';

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
  const cached = await kv.get<CachedRedirect>(cacheKey(path), 'json');
  if (cached) return cached.to ? { to: cached.to, status: cached.status ?? 301 } : null;
  const rule = await findRedirect(db, path);
  const value: CachedRedirect = rule ? { to: rule.toPath, status: rule.status } : { to: null };
  await kv.put(cacheKey(path), JSON.stringify(value), { expirationTtl: REDIRECT_CACHE_TTL_SECONDS });
  return rule ? { to: rule.toPath, status: rule.status } : null;
}

/** Create or change a rule and drop its cached answer. */
export async function saveRedirectRule(
  db: D1Database,
  kv: KVNamespace,
  rule: RedirectRule,
  audit?: AuditWrite,
): Promise<void> {
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
