// SMS verification codes: 6-digit CSPRNG codes, stored as HMACs, valid 5 minutes, dead after 5 wrong tries, sent at
// most 1/min, 5/h, 10/day per phone and 20/h, 60/day per client IP. The answer never reveals whether a phone has an
// account.
import { AppError } from '../../lib/errors';
import type { SmsPurpose } from '../../lib/schemas';
import { consumeCode, countRecentCodes, insertCodeWithinLimits, type SmsLimits } from '../db/sms';
import type { SmsProvider } from '../providers/sms/types';
import { hmacSha256Hex, randomSixDigitCode } from '../crypto';
import { MINUTE_MS } from '../../lib/time';

export const CODE_TTL_MS = 5 * MINUTE_MS;
export const CODE_MAX_ATTEMPTS = 5;
export const SMS_LIMITS: SmsLimits = {
  perPhoneMinute: 1,
  perPhoneHour: 5,
  perPhoneDay: 10,
  perIpHour: 20,
  perIpDay: 60,
};

const codeHash = (secret: string, purpose: string, phone: string, code: string) =>
  hmacSha256Hex(secret, `${purpose}:${phone}:${code}`);

/** Issue and send a code, or throw the limit that stopped it. */
export async function sendVerificationCode(
  db: D1Database,
  sms: SmsProvider,
  secret: string,
  r: { phone: string; purpose: SmsPurpose; ip: string; now: number },
): Promise<void> {
  const code = randomSixDigitCode();
  const inserted = await insertCodeWithinLimits(
    db,
    {
      phone: r.phone,
      purpose: r.purpose,
      codeHash: await codeHash(secret, r.purpose, r.phone, code),
      ip: r.ip,
      now: r.now,
      expiresAt: r.now + CODE_TTL_MS,
    },
    SMS_LIMITS,
  );
  if (!inserted) {
    const n = await countRecentCodes(db, r.phone, r.ip, r.now);
    if (n.phoneMinute >= SMS_LIMITS.perPhoneMinute) throw new AppError('codeTooFrequent');
    if (n.phoneHour >= SMS_LIMITS.perPhoneHour) throw new AppError('codeHourLimit');
    if (n.phoneDay >= SMS_LIMITS.perPhoneDay) throw new AppError('codeDayLimit');
    throw new AppError('codeIpLimit');
  }
  try {
    await sms.send({ phone: r.phone, template: 'verify_code', params: { code } });
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', where: 'sms.send', provider: sms.name, error: String(err) }));
    throw new AppError('smsFailed');
  }
}

/** Check and consume a code; true only for the one request that consumed a valid code. */
export async function verifyCode(
  db: D1Database,
  secret: string,
  r: { phone: string; purpose: SmsPurpose; code: string; now: number },
): Promise<boolean> {
  return consumeCode(db, {
    phone: r.phone,
    purpose: r.purpose,
    codeHash: await codeHash(secret, r.purpose, r.phone, r.code),
    now: r.now,
    maxAttempts: CODE_MAX_ATTEMPTS,
  });
}
