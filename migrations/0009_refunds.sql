-- Refunds (operator action Order.RefundByOrderNo; docs/decisions/032). Forward-only.
-- Orders gain state 4 (refunded) and the refund that refunded them. SQLite cannot widen a CHECK in place, so the table
-- is rebuilt with the same columns and indexes (nothing references orders by foreign key).
CREATE TABLE orders_new (
  order_no TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  product_type INTEGER NOT NULL,
  title TEXT NOT NULL,
  list_fen INTEGER NOT NULL,
  discount_fen INTEGER NOT NULL DEFAULT 0,
  credit_fen INTEGER NOT NULL DEFAULT 0,
  coupon_fen INTEGER NOT NULL DEFAULT 0,
  pay_fen INTEGER NOT NULL CHECK (pay_fen > 0),
  user_coupon_id INTEGER,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2, 3, 4)),  -- 1 unpaid, 2 paid, 3 closed, 4 refunded
  source_type INTEGER NOT NULL DEFAULT 1,
  expires_at INTEGER NOT NULL,
  paid_at INTEGER,
  paid_out_trade_no TEXT,
  transaction_id TEXT,
  fulfilled_at INTEGER,
  closed_at INTEGER,
  deleted_at INTEGER,
  created_at INTEGER NOT NULL,
  refunded_at INTEGER,
  out_refund_no TEXT                          -- the refund (refunds.out_refund_no) that refunded the order
);
INSERT INTO orders_new (order_no, user_id, kind, product_type, title, list_fen, discount_fen, credit_fen, coupon_fen,
  pay_fen, user_coupon_id, state, source_type, expires_at, paid_at, paid_out_trade_no, transaction_id, fulfilled_at,
  closed_at, deleted_at, created_at)
SELECT order_no, user_id, kind, product_type, title, list_fen, discount_fen, credit_fen, coupon_fen,
  pay_fen, user_coupon_id, state, source_type, expires_at, paid_at, paid_out_trade_no, transaction_id, fulfilled_at,
  closed_at, deleted_at, created_at FROM orders;
DROP TABLE orders;
ALTER TABLE orders_new RENAME TO orders;
CREATE INDEX orders_user ON orders(user_id, deleted_at, created_at);
CREATE INDEX orders_unpaid ON orders(state, expires_at);

-- Refunds of paid orders, always in full. status: PENDING (reserved, WeChat not yet answered or answer unknown),
-- SUCCESS / PROCESSING / ABNORMAL (WeChat accepted; the order is refunded), FAILED (WeChat refused or closed it; the
-- order stays paid). At most one live (not FAILED) refund per order: concurrent refunds reserve one row.
CREATE TABLE refunds (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  out_refund_no TEXT NOT NULL UNIQUE,
  order_no TEXT NOT NULL,
  out_trade_no TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  amount_fen INTEGER NOT NULL CHECK (amount_fen > 0),
  total_fen INTEGER NOT NULL CHECK (total_fen > 0),
  status TEXT NOT NULL DEFAULT 'PENDING'
    CHECK (status IN ('PENDING', 'SUCCESS', 'PROCESSING', 'ABNORMAL', 'FAILED')),
  refund_id TEXT,                             -- WeChat's refund_id
  operator_id INTEGER NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  note TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX refunds_one_live ON refunds(order_no) WHERE status != 'FAILED';
CREATE INDEX refunds_status ON refunds(status, created_at);

-- Development only: refunds the local WeChat Pay simulator has accepted.
CREATE TABLE pay_simulator_refunds (
  out_refund_no TEXT PRIMARY KEY,
  out_trade_no TEXT NOT NULL,
  refund_id TEXT NOT NULL,
  amount_fen INTEGER NOT NULL,
  total_fen INTEGER NOT NULL,
  status TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX pay_simulator_refunds_trade ON pay_simulator_refunds(out_trade_no);
