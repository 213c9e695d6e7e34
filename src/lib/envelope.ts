// The /api envelope codec (seed section 7): {A, P} requests and {P} | {E} responses, either as plain JSON or as
// AES-256-CBC/PKCS#7 ciphertext in base64 sent as text/plain. One codec for the browser, server components and the
// Worker. The key and IV are a transport obfuscation the client must hold; every real check lives on the server.
import { cbc } from '@noble/ciphers/aes.js';
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

/** Encrypt text to base64 AES-256-CBC/PKCS#7. */
export function encryptText(plain: string, tk: TransportKey): string {
  return toBase64(cbc(tk.key, tk.iv).encrypt(utf8(plain)));
}

/** Decrypt base64 AES-256-CBC/PKCS#7 to text; throws on bad base64, padding or UTF-8. */
export function decryptText(cipherB64: string, tk: TransportKey): string {
  const bytes = fromBase64(cipherB64.trim());
  if (bytes.length === 0 || bytes.length % 16 !== 0) throw new Error('ciphertext length');
  return fromUtf8(cbc(tk.key, tk.iv).decrypt(bytes));
}

/** Serialise a value for the wire in the given mode. */
export function encodeEnvelope(value: unknown, mode: EnvelopeMode, tk: TransportKey): string {
  const json = JSON.stringify(value);
  return mode === 'aes' ? encryptText(json, tk) : json;
}

/** Parse a wire body in the given mode; throws on anything undecodable. */
export function decodeEnvelope(body: string, mode: EnvelopeMode, tk: TransportKey): unknown {
  return JSON.parse(mode === 'aes' ? decryptText(body, tk) : body);
}

/** Encoding and decoding of the envelope for one mode and key; the browser's runs on WebCrypto (./envelope-web). */
export interface EnvelopeCodec {
  encode(value: unknown): string | Promise<string>;
  decode(body: string): unknown | Promise<unknown>;
}

/** The codec over this module's synchronous AES (Worker, server components, tests). */
export const envelopeCodec = (mode: EnvelopeMode, tk: TransportKey): EnvelopeCodec => ({
  encode: (value) => encodeEnvelope(value, mode, tk),
  decode: (body) => decodeEnvelope(body, mode, tk),
});

/** The Content-Type used for a mode. */
export const contentTypeFor = (mode: EnvelopeMode): string =>
  mode === 'aes' ? 'text/plain;charset=UTF-8' : 'application/json;charset=UTF-8';
