-- Console customer search by the last four digits of a phone (issue 24), and partial refunds with the coupon of a
-- refunded order (docs/decisions/205, 206). Forward-only.

-- 尾号 search: an expression index the query uses with the same expression (substr(phone, -4) = ?), so it never scans.
CREATE INDEX users_phone_tail ON users(substr(phone, -4));

-- Partial refunds (decision 205). An order may now have several order refunds whose live (not FAILED) amounts never
-- exceed what was paid (checked by the reserving INSERT … SELECT itself). ends_order: 1 when the refund returned all
-- that was still refundable (the order becomes refunded, as before; every existing row is such a refund); 0 for a
-- partial refund (the order stays paid). ends_packages: 1 when the refund disabled the packages the order created.
ALTER TABLE refunds ADD COLUMN ends_order INTEGER NOT NULL DEFAULT 1 CHECK (ends_order IN (0, 1));
ALTER TABLE refunds ADD COLUMN ends_packages INTEGER NOT NULL DEFAULT 1 CHECK (ends_packages IN (0, 1));
-- What the refund did with the order's coupon (decision 206), written in the refund's own batch: none (no coupon),
-- returned (back to the customer, still valid), expired (not returned), kept (partial refund: stays used);
-- '' for refunds not yet committed and for refunds made before this migration.
ALTER TABLE refunds ADD COLUMN coupon_outcome TEXT NOT NULL DEFAULT ''
  CHECK (coupon_outcome IN ('', 'none', 'returned', 'expired', 'kept'));
-- At most one order refund in flight (PENDING) per order, instead of one live refund per order: the retry of an unknown
-- outcome re-sends that one refund's number, and a second refund waits until WeChat has answered the first.
DROP INDEX refunds_one_live;
CREATE UNIQUE INDEX refunds_one_pending ON refunds(order_no) WHERE status = 'PENDING' AND kind = 'order';
-- One live refund per attempt now holds for payment refunds only (an order's paying attempt carries its partial
-- refunds); the order refund's own guards keep the two kinds apart (decision 180).
DROP INDEX refunds_one_live_attempt;
CREATE UNIQUE INDEX refunds_one_live_attempt ON refunds(out_trade_no) WHERE status != 'FAILED' AND kind = 'payment';
-- The refunds of one order (the cap's sum, the console's and the customer's lists).
CREATE INDEX refunds_order ON refunds(order_no, kind, status);
