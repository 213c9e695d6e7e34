// Promotion-link attribution (seed section 5): a link may carry did and optionally from and keyword. Used by the edge
// middleware (30-day cookies) and by the client leaf (local storage). Shared so both judge a link the same way.

export const PROMOTION_COOKIE_DAYS = 30;
export const PROMOTION_KEYS = ['did', 'from', 'keyword'] as const;
export type PromotionKey = (typeof PROMOTION_KEYS)[number];

export interface PromotionParams {
  did: string;
  from?: string;
  keyword?: string;
}

export type PromotionParse = { kind: 'none' } | { kind: 'ok'; params: PromotionParams } | { kind: 'invalid' };

const DID = /^[A-Za-z0-9_-]{1,32}$/;
const FROM = /^[A-Za-z0-9_-]{1,32}$/;
// Keywords are search terms (often Chinese): printable, no markup or quote characters, at most 64 characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
const KEYWORD = /^[^\u0000-\u001f\u007f<>"'`\\]{1,64}$/;

/** Judge the promotion parameters of a query string. No did = none; a malformed did/from/keyword = invalid. */
export function parsePromotion(search: URLSearchParams): PromotionParse {
  const did = search.get('did');
  if (did === null) return { kind: 'none' };
  const from = search.get('from');
  const keyword = search.get('keyword');
  if (!DID.test(did)) return { kind: 'invalid' };
  if (from !== null && from !== '' && !FROM.test(from)) return { kind: 'invalid' };
  if (keyword !== null && keyword !== '' && !KEYWORD.test(keyword)) return { kind: 'invalid' };
  const params: PromotionParams = { did };
  if (from) params.from = from;
  if (keyword) params.keyword = keyword;
  return { kind: 'ok', params };
}

/** True when the traffic came through a seller's link (seed: from=seller is marked). */
export const isSellerTraffic = (p: PromotionParams | null | undefined): boolean => p?.from === 'seller';

/** Ad click ids kept in session storage: Baidu bd_vid / bdVid and 360 qhclickid. */
export function adClickIds(search: URLSearchParams): { bdVid?: string; qhclickid?: string } {
  const out: { bdVid?: string; qhclickid?: string } = {};
  const bd = search.get('bd_vid') ?? search.get('bdVid');
  const qh = search.get('qhclickid');
  if (bd && /^[A-Za-z0-9_.-]{1,128}$/.test(bd)) out.bdVid = bd;
  if (qh && /^[A-Za-z0-9_.-]{1,128}$/.test(qh)) out.qhclickid = qh;
  return out;
}
