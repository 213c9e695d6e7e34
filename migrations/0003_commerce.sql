-- Commerce: the catalogue (meals, activities, regions), coupons, orders with their items, payment attempts, the
-- commercial terms of packages created by orders, and the development payment simulator's own state.
-- Money is integer fen; percentages are whole percent; times are epoch milliseconds. No FOREIGN KEY clauses: the
-- test harness empties tables in any order; the code keeps the references (orders.user_id, payments.order_no ...).

-- One purchasable specification ("meal"). Buying `units` of it grants size*units IPs (count packages), a daily limit
-- of size*units (time packages) or `units` dedicated IPs (types 30/50), valid period_days.
CREATE TABLE meals (
  id INTEGER PRIMARY KEY,
  product_type INTEGER NOT NULL CHECK (product_type IN (10, 30, 40, 50)),
  billing_method INTEGER NOT NULL CHECK (billing_method IN (1, 2)), -- 1 by count, 2 by time
  name TEXT NOT NULL,
  ip_duration_minutes INTEGER NOT NULL DEFAULT 0,
  size INTEGER NOT NULL CHECK (size > 0),
  period_days INTEGER NOT NULL CHECK (period_days > 0),
  price_fen INTEGER NOT NULL CHECK (price_fen > 0),
  is_overseas INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2)) -- 1 on sale, 2 withdrawn
);
CREATE INDEX meals_type ON meals(product_type, state, billing_method);

-- Promotions: percent off and/or bonus percent, for a type, optionally narrowed to a billing method or one meal.
CREATE TABLE activities (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  product_type INTEGER NOT NULL,
  billing_method INTEGER NOT NULL DEFAULT 0, -- 0 any
  meal_id INTEGER NOT NULL DEFAULT 0,        -- 0 any
  discount_percent INTEGER NOT NULL DEFAULT 0 CHECK (discount_percent BETWEEN 0 AND 90),
  bonus_percent INTEGER NOT NULL DEFAULT 0 CHECK (bonus_percent BETWEEN 0 AND 200),
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  state INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX activities_type ON activities(product_type, state, ends_at);

-- Regions offered when buying fixed (30) and premium (50) IPs.
CREATE TABLE meal_regions (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  province TEXT NOT NULL DEFAULT '',
  product_types TEXT NOT NULL,               -- comma list, e.g. '30,50'
  is_overseas INTEGER NOT NULL DEFAULT 0,
  sort INTEGER NOT NULL DEFAULT 0,
  state INTEGER NOT NULL DEFAULT 1
);

-- Coupon rules. kind 1: value fen off; kind 2: value percent off.
CREATE TABLE coupons (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  kind INTEGER NOT NULL CHECK (kind IN (1, 2)),
  value INTEGER NOT NULL CHECK (value > 0),
  threshold_fen INTEGER NOT NULL DEFAULT 0,
  product_types TEXT NOT NULL DEFAULT '',    -- comma list; '' = every type
  valid_days INTEGER NOT NULL CHECK (valid_days > 0), -- validity after receipt
  per_user_limit INTEGER NOT NULL DEFAULT 1,
  total_stock INTEGER NOT NULL DEFAULT 0,    -- 0 = unlimited
  issued INTEGER NOT NULL DEFAULT 0,
  claimable INTEGER NOT NULL DEFAULT 1,      -- users may receive it themselves
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  state INTEGER NOT NULL DEFAULT 1
);

-- A user's coupon. state 1 unused, 2 locked by an unpaid order (order_no), 3 used by a paid order.
CREATE TABLE user_coupons (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  coupon_id INTEGER NOT NULL,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2, 3)),
  order_no TEXT,
  valid_from INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX user_coupons_user ON user_coupons(user_id, state, expires_at);
CREATE INDEX user_coupons_coupon ON user_coupons(coupon_id, user_id);
CREATE INDEX user_coupons_order ON user_coupons(order_no);

-- Orders. state 1 unpaid, 2 paid, 3 closed. kind 1 buy, 2 renew, 3 extra count, 4 period change, 5 upgrade/merge,
-- 6 batch buy. Amounts: list - discount - credit - coupon = pay.
CREATE TABLE orders (
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
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2, 3)),
  source_type INTEGER NOT NULL DEFAULT 1,
  expires_at INTEGER NOT NULL,
  paid_at INTEGER,
  paid_out_trade_no TEXT,
  transaction_id TEXT,
  fulfilled_at INTEGER,
  closed_at INTEGER,
  deleted_at INTEGER,                        -- hidden from the user's bill list
  created_at INTEGER NOT NULL
);
CREATE INDEX orders_user ON orders(user_id, deleted_at, created_at);
CREATE INDEX orders_unpaid ON orders(state, expires_at);

-- What an order delivers when paid: a new package (package_id NULL) or an extension of package_id.
CREATE TABLE order_items (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_no TEXT NOT NULL,
  seq INTEGER NOT NULL,
  package_id INTEGER,
  product_type INTEGER NOT NULL,
  billing_method INTEGER NOT NULL,
  ip_duration_minutes INTEGER NOT NULL,
  name TEXT NOT NULL,
  meal_id INTEGER NOT NULL,
  units INTEGER NOT NULL,
  region_id INTEGER,
  add_count INTEGER NOT NULL DEFAULT 0,
  add_daily_limit INTEGER NOT NULL DEFAULT 0,
  add_ip_count INTEGER NOT NULL DEFAULT 0,
  add_days INTEGER NOT NULL DEFAULT 0,
  list_fen INTEGER NOT NULL,
  value_fen INTEGER NOT NULL,                -- money (paid + credit) this item adds to the package's value
  UNIQUE (order_no, seq)
);

-- Packages an upgrade/merge order retires when paid. A package can be in one unpaid merge order at a time.
CREATE TABLE order_merge_sources (
  order_no TEXT NOT NULL,
  package_id INTEGER NOT NULL,
  credit_fen INTEGER NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (order_no, package_id)
);
CREATE UNIQUE INDEX order_merge_sources_busy ON order_merge_sources(package_id) WHERE active = 1;

-- Payment attempts (WeChat out_trade_no). state: creating, pending, paid, closed, failed.
CREATE TABLE payments (
  out_trade_no TEXT PRIMARY KEY,
  order_no TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  provider TEXT NOT NULL,
  amount_fen INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'creating' CHECK (state IN ('creating', 'pending', 'paid', 'closed', 'failed')),
  code_url TEXT,
  expires_at INTEGER NOT NULL,
  transaction_id TEXT,
  refund_needed INTEGER NOT NULL DEFAULT 0,  -- paid but the order could not take it (closed or paid twice)
  note TEXT NOT NULL DEFAULT '',
  last_query_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  paid_at INTEGER
);
CREATE INDEX payments_order ON payments(order_no, created_at);
CREATE INDEX payments_state ON payments(state, created_at);

-- Commercial terms of a package created by an order: what renewal repeats and what an upgrade credits.
CREATE TABLE package_terms (
  package_id INTEGER PRIMARY KEY,
  order_no TEXT NOT NULL,
  meal_id INTEGER NOT NULL,
  units INTEGER NOT NULL,
  region_id INTEGER,
  paid_fen INTEGER NOT NULL DEFAULT 0        -- cumulative money paid into the package (never free grants)
);

-- Development only: the local WeChat Pay simulator's keys (generated on first use) and transactions.
CREATE TABLE pay_simulator_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  merchant_private_pem TEXT NOT NULL,
  merchant_public_pem TEXT NOT NULL,
  platform_private_pem TEXT NOT NULL,
  platform_public_pem TEXT NOT NULL,
  api_v3_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE pay_simulator_transactions (
  out_trade_no TEXT PRIMARY KEY,
  mchid TEXT NOT NULL,
  appid TEXT NOT NULL,
  description TEXT NOT NULL,
  amount_fen INTEGER NOT NULL,
  notify_url TEXT NOT NULL,
  attach TEXT,
  time_expire_ms INTEGER NOT NULL,
  trade_state TEXT NOT NULL DEFAULT 'NOTPAY',
  transaction_id TEXT,
  success_time_ms INTEGER,
  created_at INTEGER NOT NULL
);
