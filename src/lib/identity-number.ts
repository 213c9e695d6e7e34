// Pure rules for identity data: the GB 11643 resident ID number (checksum and birth date), the GB 32100 unified social
// credit code, and the masked forms shown to users. No I/O.

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** Upper-case and trim an ID number as typed (x -> X). */
export const normaliseIdNumber = (raw: string): string => raw.trim().toUpperCase();

/** The GB 11643 check character for the first 17 digits. */
export function idCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (ID_WEIGHTS[i] as number);
  return ID_CHECK[sum % 11] as string;
}

/**
 * True for a valid 18-character resident ID number: 17 digits + check character, a real birth date not in the future
 * and not before 1900, a non-zero region.
 */
export function isValidIdNumber(raw: string, now = Date.now()): boolean {
  const id = normaliseIdNumber(raw);
  if (!/^[1-9]\d{16}[\dX]$/.test(id)) return false;
  if (idCheckChar(id.slice(0, 17)) !== id[17]) return false;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  if (y < 1900) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  return date.getTime() <= now;
}

/** 110101199003071234 -> 1101**********1234 (first 4, last 4). */
export function maskIdNumber(raw: string): string {
  const id = normaliseIdNumber(raw);
  if (id.length <= 8) return '*'.repeat(id.length);
  return `${id.slice(0, 4)}${'*'.repeat(id.length - 8)}${id.slice(-4)}`;
}

/** 张三 -> *三, 欧阳娜娜 -> ***娜 (only the last character shown). */
export function maskName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length <= 1) return '*';
  return `${'*'.repeat(chars.length - 1)}${chars[chars.length - 1]}`;
}

/** A personal name as on the ID card: 2-30 CJK characters, optionally with the middle dot of minority names. */
export const isPlausibleName = (name: string): boolean =>
  /^[\u4e00-\u9fa5][\u4e00-\u9fa5·]{0,28}[\u4e00-\u9fa5]$/.test(name.trim());

const CREDIT_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** True for a GB 32100 unified social credit code (18 characters with its check character). */
export function isValidCreditCode(raw: string): boolean {
  const code = raw.trim().toUpperCase();
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CREDIT_CHARS.indexOf(code[i] as string) * (CREDIT_WEIGHTS[i] as number);
  const check = CREDIT_CHARS[(31 - (sum % 31)) % 31];
  return check === code[17];
}

/** 91310000MA1FL0XXXX -> 9131**********XXXX. */
export const maskCreditCode = (code: string): string => maskIdNumber(code);
