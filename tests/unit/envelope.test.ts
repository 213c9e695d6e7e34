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
  it('matches a fixed AES-256-CBC/PKCS#7 vector computed independently', () => {
    const plain = JSON.stringify({ A: 'User.GetCode', P: { phone: '13800138000' } });
    const vector = 'wnhqDUdXAfCsBR+DcuWhKCc17UnTuqMZXMSkFmxGjJ1NJ3lQWVyUWcrs5B2cNMtxmaCN23JNtJsV/3mwZZchrw==';
    expect(encryptText(plain, tk)).toBe(vector);
    expect(decryptText(vector, tk)).toBe(plain);
  });

  it('decrypts a Chinese error response vector', () => {
    expect(decryptText('n/mZcKiZSTv+cLiLYWo8VWlU+KDwCnXaz95wmvqTFEo=', tk)).toBe('{"E":"验证码错误"}');
  });

  it('round-trips values in both modes', () => {
    const value = { A: 'User.Login', P: { phone: '13912345678', pwd: '密码abc123', n: [1, 2, 3] } };
    for (const mode of ['json', 'aes'] as const) {
      expect(decodeEnvelope(encodeEnvelope(value, mode, tk), mode, tk)).toEqual(value);
    }
  });

  it('rejects tampered, truncated and non-base64 ciphertext', () => {
    const good = encryptText('{"A":"x"}', tk);
    expect(() => decryptText(good.slice(0, -4), tk)).toThrow();
    expect(() => decryptText('not base64!!', tk)).toThrow();
    const other = transportKeyFromHex('00'.repeat(32), '00'.repeat(16));
    expect(() => decodeEnvelope(good, 'aes', other)).toThrow();
  });
});
