// Time in Asia/Shanghai: the one module for calendar days, midnights, hours and date formatting. Times are epoch ms
// everywhere; they are shown and bucketed in Asia/Shanghai, which is UTC+8 all year (China has no daylight saving),
// so a fixed offset is exact and cheap (no Intl on hot paths such as one line per extracted IP).

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Asia/Shanghai is UTC+8 all year. */
export const SHANGHAI_OFFSET_MS = 8 * HOUR_MS;

const shifted = (ms: number): string => new Date(ms + SHANGHAI_OFFSET_MS).toISOString();

/** The Asia/Shanghai calendar day (YYYY-MM-DD) of an instant. */
export const shanghaiDay = (ms: number): string => shifted(ms).slice(0, 10);

/** "2026-11-22 12:00:00" in Asia/Shanghai. */
export const shanghaiDateTime = (ms: number): string => shifted(ms).slice(0, 19).replace('T', ' ');

/** "2026-11-22 12:00" (to the minute) in Asia/Shanghai. */
export const shanghaiMinute = (ms: number): string => shanghaiDateTime(ms).slice(0, 16);

/** "2026-11-22T12:00" in Asia/Shanghai: the value of a datetime-local field. */
export const shanghaiInput = (ms: number): string => shifted(ms).slice(0, 16);

/** "20261122120000" (yyyyMMddHHmmss) in Asia/Shanghai, for order numbers. */
export const shanghaiStamp = (ms: number): string => shifted(ms).slice(0, 19).replace(/\D/g, '');

/** RFC 3339 with the +08:00 offset, whole seconds: "2026-11-22T12:00:00+08:00". */
export const shanghaiRfc3339 = (ms: number): string => `${shifted(Math.floor(ms / 1000) * 1000).slice(0, 19)}+08:00`;

/** Midnight in Asia/Shanghai of the day holding `ms`. */
export const shanghaiMidnight = (ms: number): number => ms - ((((ms + SHANGHAI_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS);

/** "2026-11-22" (an Asia/Shanghai day) -> that day's midnight in epoch ms. */
export const shanghaiDayStart = (day: string): number => Date.parse(`${day}T00:00:00+08:00`);

/** A real YYYY-MM-DD day's midnight in Asia/Shanghai, or 0 when the text is not a real date (2026-02-30 is not). */
export function realDayStart(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return 0;
  const ms = shanghaiDayStart(day);
  // Date.parse rolls 2026-02-30 over; a real date reads back the same.
  return Number.isFinite(ms) && shanghaiDay(ms) === day ? ms : 0;
}

/**
 * Asia/Shanghai wall time as epoch ms, NaN when it is not one: "2026-11-23T10:00" (a datetime-local field),
 * "2026-11-23 10:00:00" (Alipay, the console's text fields); a space or a T, seconds optional.
 */
export function shanghaiWallTime(text: string): number {
  const t = text.replace(' ', 'T');
  return Date.parse(`${t.length === 16 ? `${t}:00` : t}+08:00`);
}

/** Epoch ms -> "2026-11-22 08:30:00" in Asia/Shanghai. */
export const formatDateTime = shanghaiDateTime;

/** Epoch ms -> "2026-11-22" in Asia/Shanghai. */
export const formatDate = shanghaiDay;

/**
 * A countdown as people read it: mm:ss under an hour (a QR code's 15 minutes), h:mm:ss under a day, and days, hours
 * and minutes beyond (a bank transfer's 7-day reservation reads 6天23小时59分, not 10079:59).
 */
export function countdownText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${two(Math.floor(s / 60))}:${two(s % 60)}`;
  if (s < 86_400) return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return `${Math.floor(s / 86_400)}天${Math.floor((s % 86_400) / 3600)}小时${Math.floor((s % 3600) / 60)}分`;
}
