-- Development only: the local Alipay stand-in's keys (generated on first use) and its trades and refunds. The stand-in
-- is the Alipay side of the gateway protocol (src/server/providers/pay/alipay-simulator.ts); production never uses it.
CREATE TABLE alipay_simulator_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  app_private_pem TEXT NOT NULL,      -- the simulated merchant application's key (the portal signs with it)
  app_public_pem TEXT NOT NULL,
  alipay_private_pem TEXT NOT NULL,   -- the stand-in signs answers and notifications with it
  alipay_public_pem TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE alipay_simulator_trades (
  out_trade_no TEXT PRIMARY KEY,
  subject TEXT NOT NULL,
  amount_fen INTEGER NOT NULL CHECK (amount_fen > 0),
  notify_url TEXT NOT NULL,
  return_url TEXT,
  time_expire_ms INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'WAIT_BUYER_PAY',
  trade_no TEXT,
  paid_at INTEGER,
  refunded_fen INTEGER NOT NULL DEFAULT 0 CHECK (refunded_fen >= 0 AND refunded_fen <= amount_fen),
  created_at INTEGER NOT NULL
);
CREATE TABLE alipay_simulator_refunds (
  out_trade_no TEXT NOT NULL,
  out_request_no TEXT NOT NULL,
  amount_fen INTEGER NOT NULL,
  applied INTEGER NOT NULL DEFAULT 0,  -- 1 once added to the trade's refunded_fen (in the same batch)
  created_at INTEGER NOT NULL,
  PRIMARY KEY (out_trade_no, out_request_no)
);
