// Customers' API secrets at rest (docs/decisions/199, 200), all under NODE_SECRET_KEY (AppConfig.nodeSecretKey):
// the extraction key as a keyed hash ("h1:" + HMAC-SHA256 under a key derived from it; looked up by that hash, the key
// itself shown once), the proxy password sealed like node secrets ("gcm1:", shown to its owner), and the salted
// verifier of the proxy password that nodes check ("hs1$salt$hmac", the only form of it a node ever receives).
// A stored value without its prefix is a plain one from before migration 0029 (the job credentials-seal converts it).
import { fromHex, toHex, utf8 } from '../../lib/bytes';
import { isSealedNodeSecret, openNodeSecret, sealNodeSecret } from './node-secrets';

const HASHED = 'h1:';
const VERIFIER = 'hs1$';

const macKeys = new Map<string, Promise<CryptoKey>>();

/** The extraction-key HMAC key: HMAC(NODE_SECRET_KEY, label), so it is never the AES key itself; once per isolate. */
function extractMacKey(keyHex: string): Promise<CryptoKey> {
  let key = macKeys.get(keyHex);
  if (!key) {
    key = (async () => {
      const root = await crypto.subtle.importKey('raw', fromHex(keyHex), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      const derived = await crypto.subtle.sign('HMAC', root, utf8('extract-key-hash-v1'));
      return crypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    })();
    macKeys.set(keyHex, key);
  }
  return key;
}

/** What proxy_api_credentials.api_key stores for an extraction key (and what /extract looks up). */
export async function hashExtractKey(keyHex: string, apiKey: string): Promise<string> {
  return HASHED + toHex(new Uint8Array(await crypto.subtle.sign('HMAC', await extractMacKey(keyHex), utf8(apiKey))));
}

/** True when a stored api_key is a hash (not a plain key left from before migration 0029). */
export const isHashedExtractKey = (stored: string): boolean => stored.startsWith(HASHED);

/** Whether `given` is the extraction key behind a stored value (hashed, or a plain legacy one), in constant time. */
export async function extractKeyMatches(keyHex: string, stored: string, given: string): Promise<boolean> {
  return sameString(isHashedExtractKey(stored) ? await hashExtractKey(keyHex, given) : given, stored);
}

/** Seal a proxy password for proxy_api_credentials.proxy_password. */
export const sealProxyPassword = (keyHex: string, plain: string): Promise<string> => sealNodeSecret(keyHex, plain);

/** True when a stored proxy password is sealed. */
export const isSealedProxyPassword = (stored: string): boolean => isSealedNodeSecret(stored);

/** The plain proxy password of a stored value (a legacy plain one as it is); null when this key cannot open it. */
export const openProxyPassword = (keyHex: string, stored: string): Promise<string | null> =>
  openNodeSecret(keyHex, stored);

/**
 * The verifier nodes check a proxy account against: 'hs1$' + salt + '$' + hex HMAC-SHA256(key = salt bytes,
 * username ':' password). A fresh random 16-byte salt unless one is given. The password is server-generated (16
 * characters of [a-z0-9], about 82 bits), so one keyed hash resists offline guessing; the salt makes verifiers of
 * equal passwords differ and useless across rotations (docs/decisions/200).
 */
export async function proxyPasswordVerifier(username: string, password: string, saltHex?: string): Promise<string> {
  const salt = saltHex ? fromHex(saltHex) : crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey('raw', salt, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8(`${username}:${password}`)));
  return `${VERIFIER}${toHex(salt)}$${toHex(mac)}`;
}

/** The parts of a verifier, or null when it is not one. */
export function parseVerifier(v: string): { saltHex: string; macHex: string } | null {
  const m = /^hs1\$([0-9a-f]{32})\$([0-9a-f]{64})$/.exec(v);
  return m ? { saltHex: m[1] as string, macHex: m[2] as string } : null;
}

function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
