// The portal's WebCrypto envelope codec speaks exactly the wire format of an independent implementation (the
// tests' @noble/ciphers reference), both ways.
import { describe, expect, it } from 'vitest';
import {
  DEV_TRANSPORT_IV_HEX,
  DEV_TRANSPORT_KEY_HEX,
  envelopeCodec as webEnvelopeCodec,
  transportKeyFromHex,
} from '../../src/lib/envelope';
import { decodeEnvelope, encodeEnvelope } from '../helpers/envelope-reference';

const tk = transportKeyFromHex(DEV_TRANSPORT_KEY_HEX, DEV_TRANSPORT_IV_HEX);
const samples = [
  { A: 'User.GetMineInfo', P: {} },
  { P: { text: '提取记录 ✓', n: 16, list: [1, 2, 3] } },
  { E: '' },
  'x'.repeat(16),
];

describe('envelopeCodec against the reference implementation', () => {
  for (const mode of ['aes', 'json'] as const) {
    it(`${mode}: encodes what the reference decodes and decodes what it encodes, byte for byte`, async () => {
      const web = webEnvelopeCodec(mode, tk);
      for (const value of samples) {
        const sent = await web.encode(value);
        expect(sent).toBe(encodeEnvelope(value, mode, tk));
        expect(decodeEnvelope(sent, mode, tk)).toEqual(value);
        expect(await web.decode(encodeEnvelope(value, mode, tk))).toEqual(value);
      }
    });
  }

  it('refuses a body that is not whole cipher blocks or has bad padding', async () => {
    const web = webEnvelopeCodec('aes', tk);
    await expect(web.decode('AAAA')).rejects.toThrow();
    await expect(web.decode(btoa('0123456789abcdef'))).rejects.toThrow();
  });
});
