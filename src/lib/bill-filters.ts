// The order page's date and order-number filters (Order.GetBillList from/to/orderNo), shared by the page that reads
// them from the query string and the filter bar that checks them before submitting.

import { DAY_MS, realDayStart } from './time';

/** The order-number format (D + 14 digits of time + 16 of [0-9A-Z]), as Order.GetBillList validates it. */
export const ORDER_NO_RE = /^D\d{14}[0-9A-Z]{16}$/;

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
  let fromDay = realDayStart(fromText ?? '') ? (fromText as string) : '';
  let toDay = realDayStart(toText ?? '') ? (toText as string) : '';
  if (fromDay && toDay && fromDay > toDay) [fromDay, toDay] = [toDay, fromDay];
  return {
    fromDay,
    toDay,
    from: fromDay ? realDayStart(fromDay) : 0,
    to: toDay ? realDayStart(toDay) + DAY_MS : 0,
  };
}

/** An order number as typed: trimmed and upper-cased; '' when it is not an order number. */
export function normalizeOrderNo(text: string | null): string {
  const v = (text ?? '').trim().toUpperCase();
  return ORDER_NO_RE.test(v) ? v : '';
}
