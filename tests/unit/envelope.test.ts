// The portal's one envelope codec (WebCrypto) against fixed vectors computed independently.
import { describe, expect, it } from 'vitest';
import {
  DEV_TRANSPORT_IV_HEX,
  DEV_TRANSPORT_KEY_HEX,
  decodeEnvelope,
  decryptText,
  encodeEnvelope,
  encryptText,
  transportKeyFromHex,
} from '../../src/lib/envelope';

const tk = transportKeyFromHex(DEV_TRANSPORT_KEY_HEX, DEV_TRANSPORT_IV_HEX);

describe('envelope codec', () => {
  it('matches a fixed AES-256-CBC/PKCS#7 vector computed independently', async () => {
    const plain = JSON.stringify({ A: 'User.GetCode', P: { phone: '13800138000' } });
    const vector = 'wnhqDUdXAfCsBR+DcuWhKCc17UnTuqMZXMSkFmxGjJ1NJ3lQWVyUWcrs5B2cNMtxmaCN23JNtJsV/3mwZZchrw==';
    expect(await encryptText(plain, tk)).toBe(vector);
    expect(await decryptText(vector, tk)).toBe(plain);
  });

  it('decrypts a Chinese error response vector', async () => {
    expect(await decryptText('n/mZcKiZSTv+cLiLYWo8VWlU+KDwCnXaz95wmvqTFEo=', tk)).toBe('{"E":"验证码错误"}');
  });

  it('round-trips values in both modes', async () => {
    const value = { A: 'User.Login', P: { phone: '13912345678', pwd: '密码abc123', n: [1, 2, 3] } };
    for (const mode of ['json', 'aes'] as const) {
      expect(await decodeEnvelope(await encodeEnvelope(value, mode, tk), mode, tk)).toEqual(value);
    }
  });

  it('rejects tampered, truncated and non-base64 ciphertext', async () => {
    const good = await encryptText('{"A":"x"}', tk);
    await expect(decryptText(good.slice(0, -4), tk)).rejects.toThrow();
    await expect(decryptText('not base64!!', tk)).rejects.toThrow();
    const other = transportKeyFromHex('00'.repeat(32), '00'.repeat(16));
    await expect(decodeEnvelope(good, 'aes', other)).rejects.toThrow();
  });
});
