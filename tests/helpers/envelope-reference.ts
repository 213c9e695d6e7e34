// An independent implementation of the /api wire format for tests (@noble/ciphers, synchronous): requests built and
// answers read with it check the portal's one WebCrypto codec (src/lib/envelope.ts) against a second implementation,
// not against itself. Fixed vectors in tests/unit/envelope.test.ts pin both.
import { cbc } from '@noble/ciphers/aes.js';
import { fromBase64, fromUtf8, toBase64, utf8 } from '../../src/lib/bytes';
import type { EnvelopeMode, TransportKey } from '../../src/lib/envelope';

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
