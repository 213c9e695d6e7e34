-- Where a refund's money goes (docs/decisions/224): 'original' back to the rail that paid (WeChat Pay, Alipay), or
-- 'balance' to the customer's account balance (a ledger entry of kind 'refund' written in the refund's commit batch).
-- An order paid from balance is always refunded to balance.
ALTER TABLE refunds ADD COLUMN route TEXT NOT NULL DEFAULT 'original' CHECK (route IN ('original', 'balance'));

-- Auto-renew from balance (docs/decisions/225): the customer's per-package opt-in. The job renews a package paid by an
-- order (its terms) within the renewal window before it expires, from balance; `notified_expiry` and `short_expiry`
-- remember for which expiry the advance notice and the balance-short notice were sent (once each per period), and
-- `renewed_expiry` for which expiry a renewal was made (never twice for one period).
CREATE TABLE package_auto_renew (
  package_id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  notified_expiry INTEGER NOT NULL DEFAULT 0,
  short_expiry INTEGER NOT NULL DEFAULT 0,
  renewed_expiry INTEGER NOT NULL DEFAULT 0,
  last_order_no TEXT,
  updated_at INTEGER NOT NULL
);
CREATE INDEX package_auto_renew_user ON package_auto_renew(user_id);
