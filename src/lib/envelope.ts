// The /api envelope codec (seed section 7): {A, P} requests and {P} | {E} responses, either as plain JSON or as
// AES-256-CBC/PKCS#7 ciphertext in base64 sent as text/plain. One codec on WebCrypto for the browser, server
// components and the Worker (docs/decisions/111): no AES code ships to the browser, and the Worker uses the same
// functions. The key and IV are a transport obfuscation the client must hold; every real check lives on the server.
import { fromBase64, fromHex, fromUtf8, toBase64, utf8 } from './bytes';

export type EnvelopeMode = 'json' | 'aes';

export interface TransportKey {
  key: Uint8Array; // 32 bytes
  iv: Uint8Array; // 16 bytes
}

/** The development transport key, used when no key is configured. Production configures its own pair. */
export const DEV_TRANSPORT_KEY_HEX = '6b3f1c9e0a2d4f8b7c5e1a3d9f0b2c4e6a8d0f1e3c5b7a9d2f4e6c8a0b1d3f5e';
export const DEV_TRANSPORT_IV_HEX = '3a7c1e5f9b2d4a6c8e0f1b3d5a7c9e2f';

/** Build a transport key from hex strings; throws if the sizes are wrong. */
export function transportKeyFromHex(keyHex: string, ivHex: string): TransportKey {
  const key = fromHex(keyHex);
  const iv = fromHex(ivHex);
  if (key.length !== 32 || iv.length !== 16) throw new Error('transport key must be 32 bytes and IV 16 bytes');
  return { key, iv };
}

// The imported WebCrypto key per transport key (imported once, on first use).
const cryptoKeys = new WeakMap<TransportKey, Promise<CryptoKey>>();
function cryptoKeyOf(tk: TransportKey): Promise<CryptoKey> {
  let k = cryptoKeys.get(tk);
  if (!k) {
    k = crypto.subtle.importKey('raw', new Uint8Array(tk.key), 'AES-CBC', false, ['encrypt', 'decrypt']);
    cryptoKeys.set(tk, k);
  }
  return k;
}

/** Encrypt text to base64 AES-256-CBC/PKCS#7 (WebCrypto pads with PKCS#7). */
export async function encryptText(plain: string, tk: TransportKey): Promise<string> {
  const iv = new Uint8Array(tk.iv);
  return toBase64(
    new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, await cryptoKeyOf(tk), utf8(plain))),
  );
}

/** Decrypt base64 AES-256-CBC/PKCS#7 to text; rejects on bad base64, length, padding or UTF-8. */
export async function decryptText(cipherB64: string, tk: TransportKey): Promise<string> {
  const bytes = fromBase64(cipherB64.trim());
  if (bytes.length === 0 || bytes.length % 16 !== 0) throw new Error('ciphertext length');
  const iv = new Uint8Array(tk.iv);
  return fromUtf8(new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, await cryptoKeyOf(tk), bytes)));
}

/** Serialise a value for the wire in the given mode. */
export async function encodeEnvelope(value: unknown, mode: EnvelopeMode, tk: TransportKey): Promise<string> {
  const json = JSON.stringify(value);
  return mode === 'aes' ? encryptText(json, tk) : json;
}

/** Parse a wire body in the given mode; rejects on anything undecodable. */
export async function decodeEnvelope(body: string, mode: EnvelopeMode, tk: TransportKey): Promise<unknown> {
  return JSON.parse(mode === 'aes' ? await decryptText(body, tk) : body);
}

/** Encoding and decoding of the envelope for one mode and key (what the API client core is given). */
export interface EnvelopeCodec {
  encode(value: unknown): Promise<string>;
  decode(body: string): Promise<unknown>;
}

/** The codec for one mode and key. */
export const envelopeCodec = (mode: EnvelopeMode, tk: TransportKey): EnvelopeCodec => ({
  encode: (value) => encodeEnvelope(value, mode, tk),
  decode: (body) => decodeEnvelope(body, mode, tk),
});

/** The Content-Type used for a mode. */
export const contentTypeFor = (mode: EnvelopeMode): string =>
  mode === 'aes' ? 'text/plain;charset=UTF-8' : 'application/json;charset=UTF-8';
