-- Refunding one payment attempt flagged refund_needed (console action Admin.RefundPayment; docs/decisions/180).
-- Forward-only.
-- refunds.kind: 'order' refunds a paid order (Order.RefundByOrderNo: the order becomes refunded); 'payment' refunds one
-- attempt whose money the order could not take (closed order, or paid by another attempt): the order is untouched.
ALTER TABLE refunds ADD COLUMN kind TEXT NOT NULL DEFAULT 'order' CHECK (kind IN ('order', 'payment'));
-- At most one live (not FAILED) order refund per order, as before; payment refunds of the same order do not count.
DROP INDEX refunds_one_live;
CREATE UNIQUE INDEX refunds_one_live ON refunds(order_no) WHERE status != 'FAILED' AND kind = 'order';
-- At most one live refund per attempt (of either kind): two concurrent refunds of an attempt reserve one row.
CREATE UNIQUE INDEX refunds_one_live_attempt ON refunds(out_trade_no) WHERE status != 'FAILED';
-- The payment refund that cleared the attempt's refund_needed flag (the commit batch's guard, like orders.out_refund_no).
ALTER TABLE payments ADD COLUMN out_refund_no TEXT;
