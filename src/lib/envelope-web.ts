// The /api envelope codec for the browser on WebCrypto (AES-256-CBC with PKCS#7 padding is built in), so the page does
// not ship an AES implementation (issue 12: home-page JavaScript budget). Same wire format as ./envelope, which the
// Worker and server components keep using; tests/unit/envelope-web.test.ts checks the two against each other.
import { fromBase64, fromUtf8, toBase64, utf8 } from './bytes';
import type { EnvelopeCodec, EnvelopeMode, TransportKey } from './envelope';

export function webEnvelopeCodec(mode: EnvelopeMode, tk: TransportKey): EnvelopeCodec {
  let cryptoKey: Promise<CryptoKey> | null = null;
  const key = () => {
    cryptoKey ??= crypto.subtle.importKey('raw', new Uint8Array(tk.key), 'AES-CBC', false, ['encrypt', 'decrypt']);
    return cryptoKey;
  };
  const iv = new Uint8Array(tk.iv);
  return {
    async encode(value) {
      const json = JSON.stringify(value);
      if (mode !== 'aes') return json;
      return toBase64(new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, await key(), utf8(json))));
    },
    async decode(body) {
      if (mode !== 'aes') return JSON.parse(body);
      const bytes = fromBase64(body.trim());
      if (bytes.length === 0 || bytes.length % 16 !== 0) throw new Error('ciphertext length');
      return JSON.parse(
        fromUtf8(new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-CBC', iv }, await key(), bytes))),
      );
    },
  };
}
