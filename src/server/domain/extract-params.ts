// The extraction API's contract as pure rules: query parsing (with the 1006 details), separators, protocol bits,
// the error code table and output formatting in txt and json. No I/O here.
import { AppError, isAppError } from '../../lib/errors';
import { shanghaiDateTime } from '../../lib/time';
import type { MessageCode } from '../../lib/messages';
import { CARRIERS, type Carrier, regionKey } from './regions';

export const PROTOCOL_BITS = { http: 1, https: 2, socks5: 4 } as const;
export type Protocol = keyof typeof PROTOCOL_BITS;
export const FIELD_ORDER = ['region', 'carrier', 'expire', 'ttl'] as const;
export type ExtraField = (typeof FIELD_ORDER)[number];
export const MAX_NUM = 200;
const SEPARATORS: Record<string, string> = { '1': '\r\n', '2': '\n', '3': ' ', '4': '|' };

export interface ExtractParams {
  key: string;
  num: number;
  protocol: Protocol;
  format: 'txt' | 'json';
  separator: string;
  regions: string[];
  excludes: string[];
  carriers: Carrier[];
  dedup: 0 | 1 | 2;
  minTtl: number;
  fields: ExtraField[];
  packageId: number | null;
  type: 10 | 40;
}

/** Error codes of the extraction API with their HTTP status and catalogue code. */
export const EXTRACT_ERRORS = {
  1001: { status: 401, code: 'extractKeyInvalid' },
  1002: { status: 403, code: 'extractIpNotAllowed' },
  1003: { status: 403, code: 'extractNoPackage' },
  1004: { status: 403, code: 'extractQuotaExhausted' },
  1005: { status: 429, code: 'extractTooFrequent' },
  1006: { status: 400, code: 'extractBadParams' },
  1007: { status: 404, code: 'extractNoIp' },
  1008: { status: 401, code: 'extractTokenInvalid' },
  1009: { status: 401, code: 'extractTokenExpired' },
  1010: { status: 401, code: 'extractTokenReplayed' },
  1011: { status: 429, code: 'extractKeyThrottled' },
} as const satisfies Record<number, { status: number; code: MessageCode }>;
export type ExtractErrorCode = keyof typeof EXTRACT_ERRORS;

const WIRE_CODES = new Map<MessageCode, ExtractErrorCode>(
  Object.entries(EXTRACT_ERRORS).map(([wire, e]) => [e.code, Number(wire) as ExtractErrorCode]),
);

/** A failed extraction: the application error for a stable code (and, for 1006, which parameter). */
export const extractError = (code: ExtractErrorCode, detail?: string): AppError =>
  new AppError(EXTRACT_ERRORS[code].code, { status: EXTRACT_ERRORS[code].status, ...(detail ? { detail } : {}) });

/** The extraction API's code of an error, or null when it is not an extraction refusal. */
export const extractCodeOf = (err: unknown): ExtractErrorCode | null =>
  isAppError(err) ? (WIRE_CODES.get(err.code) ?? null) : null;

/** True when the error is one of the extraction API's refusals. */
export const isExtractError = (err: unknown): err is AppError => extractCodeOf(err) !== null;

const list = (v: string | undefined) =>
  (v ?? '')
    .split(/[,，]/)
    .map((s) => s.trim())
    .filter(Boolean);

function intParam(q: URLSearchParams, name: string, def: number, min: number, max: number): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return def;
  if (!/^\d{1,9}$/.test(raw)) throw extractError(1006, `${name}须为${min}-${max}的整数`);
  const n = Number(raw);
  if (n < min || n > max) throw extractError(1006, `${name}须为${min}-${max}的整数`);
  return n;
}

/** The format the caller asked for, so even a parameter error answers in it (txt when unreadable). */
export const requestedFormat = (q: URLSearchParams): 'txt' | 'json' => (q.get('format') === 'json' ? 'json' : 'txt');

/** Parse the query string of GET /extract; throws the extraction error 1006 naming the bad parameter (1001 for no key). */
export function parseExtractQuery(q: URLSearchParams): ExtractParams {
  const key = (q.get('key') ?? '').trim();
  // Token calls (uid= + token=, docs/decisions/045) carry no key: extractCaller has already proven the caller.
  if (!q.has('token') && !/^[A-Za-z0-9]{16,64}$/.test(key)) throw extractError(1001);
  const format = q.get('format') ?? 'txt';
  if (format !== 'txt' && format !== 'json') throw extractError(1006, 'format须为txt或json');
  const protocol = q.get('protocol') ?? 'http';
  if (!Object.hasOwn(PROTOCOL_BITS, protocol)) throw extractError(1006, 'protocol须为http、https或socks5');
  const sep = q.get('sep') ?? '1';
  let separator: string;
  if (sep === '5') {
    separator = q.get('sep_text') ?? '';
    if (separator.length < 1 || separator.length > 10) throw extractError(1006, 'sep=5时sep_text须为1-10个字符');
  } else {
    const known = SEPARATORS[sep];
    if (known === undefined) throw extractError(1006, 'sep须为1-5');
    separator = known;
  }
  const carriers = list(q.get('carrier') ?? undefined);
  for (const c of carriers) {
    if (!(CARRIERS as readonly string[]).includes(c)) throw extractError(1006, 'carrier须为电信、联通或移动');
  }
  const fields = list(q.get('fields') ?? undefined);
  for (const f of fields) {
    if (!(FIELD_ORDER as readonly string[]).includes(f))
      throw extractError(1006, 'fields只能包含region,carrier,expire,ttl');
  }
  const regions = list(q.get('region') ?? undefined).map(regionKey);
  const excludes = list(q.get('exclude') ?? undefined).map(regionKey);
  if (regions.length > 50 || excludes.length > 50) throw extractError(1006, '地区最多50个');
  const type = q.get('type') ?? '10';
  if (type !== '10' && type !== '40') throw extractError(1006, 'type须为10或40');
  const pkg = q.get('package');
  let packageId: number | null = null;
  if (pkg !== null && pkg !== '') {
    if (!/^[1-9]\d{0,12}$/.test(pkg)) throw extractError(1006, 'package须为套餐ID');
    packageId = Number(pkg);
  }
  return {
    key,
    num: intParam(q, 'num', 1, 1, MAX_NUM),
    protocol: protocol as Protocol,
    format,
    separator,
    regions: [...new Set(regions)],
    excludes: [...new Set(excludes)],
    carriers: [...new Set(carriers)] as Carrier[],
    dedup: intParam(q, 'dedup', 0, 0, 2) as 0 | 1 | 2,
    minTtl: intParam(q, 'min_ttl', 0, 0, 7 * 86_400),
    // Output order is fixed (region, carrier, expire, ttl) whatever order the caller listed them in.
    fields: FIELD_ORDER.filter((f) => fields.includes(f)),
    packageId,
    type: Number(type) as 10 | 40,
  };
}

/** When an extracted IP stops being usable: its own expiry or the package's IP lifetime, whichever is first. */
export const leaseEnd = (ipExpiresAt: number, now: number, durationMinutes: number): number =>
  Math.min(ipExpiresAt, now + durationMinutes * 60_000);

export interface ExtractedIp {
  ip: string;
  port: number;
  region: string;
  carrier: string;
  expiresAt: number;
}

/** The success body in the chosen format. */
export function formatSuccess(
  p: Pick<ExtractParams, 'format' | 'separator' | 'fields' | 'protocol'>,
  ips: ExtractedIp[],
  now: number,
): string {
  const ttl = (e: ExtractedIp) => Math.max(0, Math.floor((e.expiresAt - now) / 1000));
  if (p.format === 'json') {
    const list = ips.map((e) => {
      const item: Record<string, string | number> = { ip: e.ip, port: e.port, protocol: p.protocol };
      if (p.fields.includes('region')) item.region = e.region;
      if (p.fields.includes('carrier')) item.carrier = e.carrier;
      if (p.fields.includes('expire')) item.expire_at = shanghaiDateTime(e.expiresAt);
      if (p.fields.includes('ttl')) item.ttl = ttl(e);
      return item;
    });
    return JSON.stringify({ code: 0, msg: '成功', data: { count: list.length, list } });
  }
  return ips
    .map((e) => {
      const extra = p.fields.map((f) =>
        f === 'region'
          ? e.region
          : f === 'carrier'
            ? e.carrier
            : f === 'expire'
              ? shanghaiDateTime(e.expiresAt)
              : String(ttl(e)),
      );
      return [`${e.ip}:${e.port}`, ...extra].join(',');
    })
    .join(p.separator);
}

/** The error body in the chosen format: {"code":n,"msg":"..."} or the line "ERROR <code> <msg>". */
export function formatError(format: 'txt' | 'json', err: AppError): string {
  const code = extractCodeOf(err) ?? 500;
  return format === 'json' ? JSON.stringify({ code, msg: err.message }) : `ERROR ${code} ${err.message}`;
}
