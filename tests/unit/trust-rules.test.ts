// Pure trust rules: ID number checksum and dates, masking, credit codes, image sniffing, the company and withdrawal
// state machines, commission arithmetic and identity encryption.
import { describe, expect, it } from 'vitest';
import { identityLabel } from '../../src/lib/identity';
import { commissionAmountFen, commissionRateBp, nextWithdrawalState } from '../../src/server/domain/commission';
import { nextCompanyState, sniffImageType } from '../../src/server/domain/company-auth';
import { decryptField, encryptField, identityKeys, keyedHash } from '../../src/server/domain/identity-crypto';
import {
  idCheckChar,
  isPlausibleName,
  isValidCreditCode,
  isValidIdNumber,
  maskIdNumber,
  maskName,
} from '../../src/lib/identity-number';

const withCheck = (first17: string) => first17 + idCheckChar(first17);

describe('resident ID numbers (GB 11643)', () => {
  it('accepts the standard example and a computed number, with lower-case x', () => {
    expect(isValidIdNumber('11010519491231002X')).toBe(true);
    expect(isValidIdNumber('11010519491231002x')).toBe(true);
    expect(isValidIdNumber(withCheck('44030419900307123'))).toBe(true);
  });
  it('refuses a wrong check character, a bad date, a future birth date and bad shapes', () => {
    expect(isValidIdNumber('110105194912310021')).toBe(false);
    expect(isValidIdNumber(withCheck('44030419900230123'))).toBe(false); // 30 February
    expect(isValidIdNumber(withCheck('44030418990101123'))).toBe(false); // before 1900
    expect(isValidIdNumber(withCheck('44030420990101123'), Date.UTC(2026, 0, 1))).toBe(false); // future
    expect(isValidIdNumber('01010519491231002X')).toBe(false);
    expect(isValidIdNumber('1101051949123100')).toBe(false);
  });
  it('masks ID numbers and names', () => {
    expect(maskIdNumber('11010519491231002x')).toBe('1101**********002X');
    expect(maskName('张三')).toBe('*三');
    expect(maskName('欧阳娜娜')).toBe('***娜');
    expect(isPlausibleName('张三')).toBe(true);
    expect(isPlausibleName('阿卜杜·热合曼')).toBe(true);
    expect(isPlausibleName('Zhang San')).toBe(false);
  });
});

describe('unified social credit codes (GB 32100)', () => {
  it('checks the check character', () => {
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    expect(isValidCreditCode('91350100M000100Y44')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y4')).toBe(false);
  });
});

describe('licence images', () => {
  it('recognises jpeg, png and webp by magic bytes only', () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(new TextEncoder().encode('GIF89a......'))).toBeNull();
    expect(sniffImageType(new TextEncoder().encode('<svg xmlns='))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe('company authentication states', () => {
  it('moves pending to approved, individual or rejected, and approved to revoked only', () => {
    expect(nextCompanyState(4, 'approve')).toBe(1);
    expect(nextCompanyState(4, 'individual')).toBe(2);
    expect(nextCompanyState(4, 'reject')).toBe(5);
    expect(nextCompanyState(1, 'revoke')).toBe(3);
    expect(nextCompanyState(1, 'approve')).toBeNull();
    expect(nextCompanyState(5, 'approve')).toBeNull();
    expect(nextCompanyState(0, 'approve')).toBeNull();
  });
  it('labels the states as the seed says', () => {
    expect(identityLabel({ isIdentityAuth: false, companyAuthState: 1 })).toBe('企业已认证');
    expect(identityLabel({ isIdentityAuth: false, companyAuthState: 2 })).toBe('个人已认证');
    expect(identityLabel({ isIdentityAuth: false, companyAuthState: 3 })).toBe('个人已认证');
    expect(identityLabel({ isIdentityAuth: false, companyAuthState: 4 })).toBe('未认证');
    expect(identityLabel({ isIdentityAuth: false, companyAuthState: 5 })).toBe('未认证');
  });
});

describe('commission arithmetic', () => {
  it('uses the first-order and recurring rates per product type', () => {
    expect(commissionRateBp(10, true)).toBe(2000);
    expect(commissionRateBp(10, false)).toBe(1000);
    expect(commissionRateBp(30, true)).toBe(1500);
    expect(commissionRateBp(50, false)).toBe(500);
    expect(commissionRateBp(99, true)).toBe(0);
  });
  it('floors to whole fen and never goes negative', () => {
    expect(commissionAmountFen(9900, 2000)).toBe(1980);
    expect(commissionAmountFen(999, 1000)).toBe(99); // 99.9 -> 99
    expect(commissionAmountFen(1, 1000)).toBe(0);
    expect(commissionAmountFen(-500, 1000)).toBe(0);
  });
  it('moves withdrawals only along the documented states', () => {
    expect(nextWithdrawalState(1, 'approve')).toBe(2);
    expect(nextWithdrawalState(2, 'paid')).toBe(3);
    expect(nextWithdrawalState(1, 'reject')).toBe(4);
    expect(nextWithdrawalState(2, 'reject')).toBe(4);
    expect(nextWithdrawalState(1, 'paid')).toBeNull();
    expect(nextWithdrawalState(3, 'reject')).toBeNull();
    expect(nextWithdrawalState(4, 'approve')).toBeNull();
  });
});

describe('identity encryption', () => {
  it('round-trips, uses a fresh IV each time, detects tampering and hashes with a key', async () => {
    const keys = await identityKeys('k'.repeat(40));
    const a = await encryptField(keys, '11010519491231002X');
    const b = await encryptField(keys, '11010519491231002X');
    expect(a).not.toBe(b);
    expect(a).not.toContain('1101051949');
    expect(await decryptField(keys, a)).toBe('11010519491231002X');
    const [iv, ct] = a.split('.');
    const flipped = `${iv}.${ct?.startsWith('A') ? `B${ct.slice(1)}` : `A${ct?.slice(1)}`}`;
    await expect(decryptField(keys, flipped)).rejects.toThrow();
    const other = await identityKeys('m'.repeat(40));
    expect(await keyedHash(keys, 'id', 'X')).toBe(await keyedHash(keys, 'id', 'X'));
    expect(await keyedHash(keys, 'id', 'X')).not.toBe(await keyedHash(other, 'id', 'X'));
    await expect(identityKeys('short')).rejects.toThrow();
  });
});
