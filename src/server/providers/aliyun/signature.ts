// Alibaba Cloud OpenAPI V3 request signing (ACS3-HMAC-SHA256) for RPC-style APIs, and the signed JSON call built on it.
import { toHex } from '../../../lib/bytes';
import { hmacSha256Hex, sha256Hex } from '../../crypto';

export const ACS3_ALGORITHM = 'ACS3-HMAC-SHA256';

export type QueryValue = string | number | boolean | undefined;

export interface Acs3SignInput {
  accessKeyId: string;
  accessKeySecret: string;
  /** Endpoint host without scheme, e.g. dysmsapi.aliyuncs.com. */
  host: string;
  action: string;
  version: string;
  query?: Record<string, QueryValue>;
  method?: 'GET' | 'POST';
  /** Milliseconds since the epoch; becomes x-acs-date. */
  now: number;
  /** Unique per request; the gateway rejects a nonce it has already seen. */
  nonce: string;
}

export interface SignedAcs3Request {
  method: 'GET' | 'POST';
  url: string;
  /** Every header to send, including host (which fetch derives from the URL anyway) and Authorization. */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  authorization: string;
}

/** RFC 3986 percent-encoding of UTF-8, as the V3 canonical query string requires (space is %20, ~ stays). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** ISO 8601 UTC timestamp without milliseconds (yyyy-MM-ddTHH:mm:ssZ), the x-acs-date format. */
export function acsDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A fresh 128-bit hex nonce for x-acs-signature-nonce. */
export function randomNonce(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(16)));
}

/** Sorted, percent-encoded query string; used both for signing and as the URL query so the two can never differ. */
export function canonicalQueryString(query: Record<string, QueryValue>): string {
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    // The vendor docs and SDKs canonicalize empty values differently (`k=` vs `k`), so empty values are never sent.
    if (value === undefined || value === '') continue;
    pairs.push([percentEncode(key), percentEncode(String(value))]);
  }
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** Sign an RPC-style call with ACS3-HMAC-SHA256: parameters in the query string, empty body. */
export async function signAcs3Request(input: Acs3SignInput): Promise<SignedAcs3Request> {
  const method = input.method ?? 'POST';
  const query = canonicalQueryString(input.query ?? {});
  const hashedPayload = await sha256Hex('');
  const signed: Record<string, string> = {
    host: input.host,
    'x-acs-action': input.action,
    'x-acs-content-sha256': hashedPayload,
    'x-acs-date': acsDate(input.now),
    'x-acs-signature-nonce': input.nonce,
    'x-acs-version': input.version,
  };
  const names = Object.keys(signed).sort();
  const canonicalHeaders = names.map((name) => `${name}:${(signed[name] ?? '').trim()}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [method, '/', query, canonicalHeaders, signedHeaders, hashedPayload].join('\n');
  const stringToSign = `${ACS3_ALGORITHM}\n${await sha256Hex(canonicalRequest)}`;
  const signature = await hmacSha256Hex(input.accessKeySecret, stringToSign);
  const authorization = `${ACS3_ALGORITHM} Credential=${input.accessKeyId},SignedHeaders=${signedHeaders},Signature=${signature}`;
  return {
    method,
    url: `https://${input.host}/${query ? `?${query}` : ''}`,
    // accept is unsigned: V3 signs only host, content-type and x-acs-* headers.
    headers: { ...signed, accept: 'application/json', authorization },
    canonicalRequest,
    stringToSign,
    authorization,
  };
}

/** A fetch-ready Request for a signed call; host is left to the runtime, which takes it from the URL. */
export function toFetchRequest(signed: SignedAcs3Request): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(signed.headers)) {
    if (name !== 'host') headers.set(name, value);
  }
  return new Request(signed.url, { method: signed.method, headers });
}

export interface Acs3CallOptions {
  accessKeyId: string;
  accessKeySecret: string;
  host: string;
  fetch: typeof fetch;
  now: () => number;
}

export interface Acs3Response {
  status: number;
  body: Record<string, unknown>;
}

/** Make one signed RPC call and return the HTTP status with the parsed JSON body ({} when not JSON). */
export async function callAcs3Rpc(
  opts: Acs3CallOptions,
  action: string,
  version: string,
  query: Record<string, QueryValue>,
): Promise<Acs3Response> {
  const signed = await signAcs3Request({
    accessKeyId: opts.accessKeyId,
    accessKeySecret: opts.accessKeySecret,
    host: opts.host,
    action,
    version,
    query,
    method: 'POST',
    now: opts.now(),
    nonce: randomNonce(),
  });
  const response = await opts.fetch(toFetchRequest(signed));
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // Gateway errors in front of the API can be non-JSON; callers fall back to the HTTP status.
  }
  return { status: response.status, body };
}

/** The vendor's error code from a response body (Code or code), else HTTP_<status>. */
export function vendorCode(res: Acs3Response): string {
  const code = res.body.Code ?? res.body.code;
  return code === undefined || code === null || code === '' ? `HTTP_${res.status}` : String(code);
}

/** A fetch that is safe to call detached: workerd throws "Illegal invocation" for an unbound global fetch. */
export function defaultFetch(): typeof fetch {
  return (input, init) => fetch(input, init);
}
