-- Notice SMS outbox (docs/decisions/242): every auto-renew notice that goes to the customer's phone (template
-- renew_notice) is written here in the same batch as its 站内通知 claim, then sent; a send that fails with an error
-- worth retrying (network, throttling) is tried again by the five-minute job after 1, 5 and 30 minutes, then given up.
-- `notice_key` is the idempotency key per notice and period ('renew_notice:<package>:<expiry>:<notified|short>'):
-- one row, so one text, whatever runs at the same time. `package_id` and `period_expiry` say which period the notice is
-- about, so a retry is dropped once the notice no longer applies (renewed, turned off, the package ended).
-- A claim moves `next_at` past the send (a lease) and counts the attempt; `reason` records why a row stopped short of
-- 'sent' ('permanent', 'gave_up' or 'no_longer_applies'), `last_error` the vendor's last answer.
-- Verification codes never come here: a late code is useless.
CREATE TABLE notice_sms (
  id INTEGER PRIMARY KEY,
  notice_key TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  period_expiry INTEGER NOT NULL,
  phone TEXT NOT NULL,
  template TEXT NOT NULL,
  params TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed', 'dropped')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  reason TEXT CHECK (reason IS NULL OR reason IN ('permanent', 'gave_up', 'no_longer_applies')),
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX notice_sms_due ON notice_sms(next_at) WHERE state = 'pending';
CREATE INDEX notice_sms_period ON notice_sms(period_expiry);
