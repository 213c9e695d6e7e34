-- Company bank transfers (对公转账, docs/decisions/227): one row per order the customer chose to pay by transfer, named
-- by its remittance reference (汇款识别码: 8 characters of 23456789ABCDEFGHJKLMNPQRSTUVWXYZ, no 0/O/1/I). Finance's
-- confirmation fills the received amount, the payer, the bank's serial number and the payment attempt (provider
-- 'transfer') that paid the order in the same batch. One bank credit pays at most one order (unique serial).
CREATE TABLE bank_transfers (
  reference TEXT PRIMARY KEY,
  order_no TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'awaiting' CHECK (state IN ('awaiting', 'confirmed')),
  received_fen INTEGER,
  payer_name TEXT,
  bank_serial TEXT,
  out_trade_no TEXT,
  confirmed_by INTEGER,
  confirmed_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX bank_transfers_serial ON bank_transfers(bank_serial) WHERE bank_serial IS NOT NULL;
CREATE INDEX bank_transfers_state ON bank_transfers(state, created_at);
