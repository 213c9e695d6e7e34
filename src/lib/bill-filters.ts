// The order page's date and order-number filters (Order.GetBillList from/to/orderNo), shared by the page that reads
// them from the query string and the filter bar that checks them before submitting.

const DAY = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The order-number format (D + 14 digits of time + 16 of [0-9A-Z]), as Order.GetBillList validates it. */
export const ORDER_NO_RE = /^D\d{14}[0-9A-Z]{16}$/;

/** Epoch ms of Asia/Shanghai midnight starting a YYYY-MM-DD day, or 0 when the text is not a real date. */
export function shanghaiDayStart(day: string): number {
  const m = DAY_RE.exec(day);
  if (!m) return 0;
  const ms = Date.parse(`${day}T00:00:00+08:00`);
  // Date.parse rolls 2026-02-30 over; a real date reads back the same.
  const back = new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
  return Number.isFinite(ms) && back === day ? ms : 0;
}

export interface BillDateFilter {
  /** YYYY-MM-DD as typed (only when valid), for the form's initial values. */
  fromDay: string;
  toDay: string;
  /** The API's bounds: created_at >= from and < to (0 = open). The to day is included whole. */
  from: number;
  to: number;
}

/** The date filter from the query (invalid dates are ignored, a reversed range is swapped). */
export function billDateFilter(fromText: string | null, toText: string | null): BillDateFilter {
  let fromDay = shanghaiDayStart(fromText ?? '') ? (fromText as string) : '';
  let toDay = shanghaiDayStart(toText ?? '') ? (toText as string) : '';
  if (fromDay && toDay && fromDay > toDay) [fromDay, toDay] = [toDay, fromDay];
  return {
    fromDay,
    toDay,
    from: fromDay ? shanghaiDayStart(fromDay) : 0,
    to: toDay ? shanghaiDayStart(toDay) + DAY : 0,
  };
}

/** An order number as typed: trimmed and upper-cased; '' when it is not an order number. */
export function normalizeOrderNo(text: string | null): string {
  const v = (text ?? '').trim().toUpperCase();
  return ORDER_NO_RE.test(v) ? v : '';
}
