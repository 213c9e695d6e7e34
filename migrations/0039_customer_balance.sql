-- The customer's balance (账户余额, docs/decisions/224), distinct from withdrawable commission: integer fen that can
-- never go negative (the CHECK is the backstop; every debit is a conditional UPDATE), and its ledger: one row per
-- change with the signed amount and the balance right after it. `ref` names what caused the entry once (a payment's
-- out_trade_no, a top-up order, a refund number, an adjustment), so replaying the same cause adds nothing.
CREATE TABLE customer_balances (
  user_id INTEGER PRIMARY KEY,
  balance_fen INTEGER NOT NULL DEFAULT 0 CHECK (balance_fen >= 0),
  updated_at INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE balance_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('topup', 'pay', 'refund', 'adjust', 'renew')),
  amount_fen INTEGER NOT NULL CHECK (amount_fen != 0),
  balance_after_fen INTEGER NOT NULL CHECK (balance_after_fen >= 0),
  order_no TEXT,
  ref TEXT NOT NULL UNIQUE,
  note TEXT NOT NULL DEFAULT '',
  operator_id INTEGER,
  applied INTEGER NOT NULL DEFAULT 0,        -- 1 once the balance moved by this row (set in the same batch)
  created_at INTEGER NOT NULL
);
CREATE INDEX balance_ledger_user ON balance_ledger(user_id, id);
