// Who is calling GET /extract: the bare extraction key (`key=`), or an AES token proving it (`uid=` + `token=`,
// docs/decisions/045). token = Base64(AES-128-CBC(Key, IV, PKCS#7, UTF-8 JSON {"k":"<extraction key>","t":<epoch ms>}))
// with the account's AES Key and IV (16 characters each, used as UTF-8 bytes). A token is accepted once, within
// TOKEN_WINDOW_MS of the server clock.
import { findByApiKeyHash, findForToken } from '../db/credentials';
import { markTokenUsed } from '../db/extract-token';
import { extractKeyMatches, hashExtractKey } from './credential-secrets';
import { extractError } from './extract-params';
import { sha256Hex } from './node-auth';

export const TOKEN_WINDOW_MS = 5 * 60_000;

const enc = new TextEncoder();

function base64Bytes(s: string): Uint8Array<ArrayBuffer> | null {
  const std = s.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(std) || std.length > 1400) return null;
  try {
    const bin = atob(std.padEnd(Math.ceil(std.length / 4) * 4, '='));
    return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Encrypt a token (what callers do; tests and the code samples use the same recipe). */
export async function makeExtractToken(aesKey: string, aesIv: string, apiKey: string, t: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', enc.encode(aesKey), 'AES-CBC', false, ['encrypt']);
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-CBC', iv: enc.encode(aesIv) },
    key,
    enc.encode(JSON.stringify({ k: apiKey, t })),
  );
  return btoa(String.fromCharCode(...new Uint8Array(ct)));
}

/** Decrypt and parse a token, or null when it is not one (bad Base64, wrong key, bad padding, bad JSON). */
export async function openExtractToken(
  aesKey: string,
  aesIv: string,
  token: string,
): Promise<{ k: string; t: number; plain: string } | null> {
  const bytes = base64Bytes(token);
  if (!bytes || bytes.length === 0 || bytes.length % 16 !== 0) return null;
  const kb = enc.encode(aesKey);
  const ib = enc.encode(aesIv);
  if (![16, 24, 32].includes(kb.length) || ib.length !== 16) return null;
  try {
    const key = await crypto.subtle.importKey('raw', kb, 'AES-CBC', false, ['decrypt']);
    const plain = new TextDecoder('utf-8', { fatal: true }).decode(
      await crypto.subtle.decrypt({ name: 'AES-CBC', iv: ib }, key, bytes),
    );
    const v = JSON.parse(plain) as { k?: unknown; t?: unknown };
    if (typeof v.k !== 'string' || typeof v.t !== 'number' || !Number.isSafeInteger(v.t)) return null;
    return { k: v.k, t: v.t, plain };
  } catch {
    return null;
  }
}

/**
 * The account behind an /extract call, or an extraction error: 1001 for a bad bare key; for token calls 1008 (not a
 * token of this account: unknown uid, wrong AES key/IV, wrong extraction key, garbage), 1009 (timestamp more than 5
 * minutes from the server clock), 1010 (this token was already used).
 */
export async function extractCaller(
  db: D1Database,
  keyHex: string,
  q: URLSearchParams,
  now: number,
): Promise<{ userId: number; rateLimit: number }> {
  if (!q.has('token')) {
    const key = q.get('key') ?? '';
    const owner = /^[A-Za-z0-9]{16,64}$/.test(key)
      ? await findByApiKeyHash(db, await hashExtractKey(keyHex, key))
      : null;
    if (!owner) throw extractError(1001);
    return owner;
  }
  const uid = q.get('uid') ?? '';
  const creds = /^[1-9]\d{0,12}$/.test(uid) ? await findForToken(db, Number(uid)) : null;
  const opened = creds ? await openExtractToken(creds.aesKey, creds.aesIv, q.get('token') ?? '') : null;
  if (!creds || !opened || !(await extractKeyMatches(keyHex, creds.apiKeyHash, opened.k))) throw extractError(1008);
  if (Math.abs(now - opened.t) > TOKEN_WINDOW_MS) throw extractError(1009);
  const fresh = await markTokenUsed(db, creds.userId, await sha256Hex(opened.plain), opened.t + TOKEN_WINDOW_MS);
  if (!fresh) throw extractError(1010);
  return { userId: creds.userId, rateLimit: creds.rateLimit };
}
