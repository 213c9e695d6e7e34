// Display formatting: phone masking, money (integer fen), and the dates of src/lib/time.ts (Asia/Shanghai).

/** 13812341234 -> 138****1234 (first 3, four stars, last 4). */
export function maskPhone(phone: string): string {
  if (phone.length < 7) return phone;
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}

/** Integer fen -> "¥12.30" (or "12.30" without the sign). */
export function formatFen(fen: number, withSign = true): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return `${sign}${withSign ? '¥' : ''}${text}`;
}

/** Yuan text as people type it (at most two decimals) -> integer fen, or null. */
export function yuanToFen(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/**
 * A count with thousands separators: 10000 -> "10,000", the same text as `toLocaleString('zh-CN')` for an integer.
 * Written out because the browser's first `toLocaleString('zh-CN')` loads the locale's number data: one task of
 * 40-100 ms on a throttled phone, in the middle of hydrating the buy page (docs/decisions/183). Non-integers (none of
 * the counts shown) fall back to the locale formatter.
 */
export function formatCount(v: number): string {
  if (!Number.isSafeInteger(v)) return v.toLocaleString('zh-CN');
  const digits = String(Math.abs(v)).replace(/\B(?=(\d{3})+$)/g, ',');
  return v < 0 ? `-${digits}` : digits;
}

// Dates are formatted by the time module (Asia/Shanghai); re-exported here with the other display formatters.
export { formatDate, formatDateTime } from './time';
