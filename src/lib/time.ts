// Time in Asia/Shanghai: the one module for calendar days, midnights, hours and date formatting. Times are epoch ms
// everywhere; they are shown and bucketed in Asia/Shanghai, which is UTC+8 all year (China has no daylight saving),
// so a fixed offset is exact and cheap (no Intl on hot paths such as one line per extracted IP).

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** Asia/Shanghai is UTC+8 all year. */
export const SHANGHAI_OFFSET_MS = 8 * HOUR_MS;

const shifted = (ms: number): string => new Date(ms + SHANGHAI_OFFSET_MS).toISOString();

/** The Asia/Shanghai calendar day (YYYY-MM-DD) of an instant. */
export const shanghaiDay = (ms: number): string => shifted(ms).slice(0, 10);

/** "2026-11-22 12:00:00" in Asia/Shanghai. */
export const shanghaiDateTime = (ms: number): string => shifted(ms).slice(0, 19).replace('T', ' ');

/** "20261122120000" (yyyyMMddHHmmss) in Asia/Shanghai, for order numbers. */
export const shanghaiStamp = (ms: number): string => shifted(ms).slice(0, 19).replace(/\D/g, '');

/** RFC 3339 with the +08:00 offset, whole seconds: "2026-11-22T12:00:00+08:00". */
export const shanghaiRfc3339 = (ms: number): string => `${shifted(Math.floor(ms / 1000) * 1000).slice(0, 19)}+08:00`;

/** Midnight in Asia/Shanghai of the day holding `ms`. */
export const shanghaiMidnight = (ms: number): number => ms - ((((ms + SHANGHAI_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS);

/** "2026-11-22" (an Asia/Shanghai day) -> that day's midnight in epoch ms. */
export const shanghaiDayStart = (day: string): number => Date.parse(`${day}T00:00:00+08:00`);

/** Epoch ms -> "2026-11-22 08:30:00" in Asia/Shanghai. */
export const formatDateTime = shanghaiDateTime;

/** Epoch ms -> "2026-11-22" in Asia/Shanghai. */
export const formatDate = shanghaiDay;
