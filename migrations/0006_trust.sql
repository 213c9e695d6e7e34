-- Trust and growth: real-name (personal face verification, company licences), account settings, per-user notice
-- read state, the welfare trial, red packets, promotion links, sellers, commission and withdrawals.
-- Times are epoch milliseconds; money is integer fen; rates are basis points. State values: docs/decisions/061.

ALTER TABLE users ADD COLUMN auto_replace INTEGER NOT NULL DEFAULT 0;   -- User.IsAutoReplace
ALTER TABLE users ADD COLUMN seller_id INTEGER;                        -- assigned at registration from a seller link

-- One face-verification attempt. The name and ID number are AES-GCM ciphertexts; id_hash is HMAC-SHA256 under a key
-- derived from ID_ENCRYPTION_KEY. state: 0 pending, 1 passed, 2 failed, 3 refused (identity already bound elsewhere).
CREATE TABLE identity_verifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  outer_order_no TEXT NOT NULL UNIQUE,
  certify_id TEXT NOT NULL UNIQUE,
  provider TEXT NOT NULL,
  name_enc TEXT NOT NULL,
  id_no_enc TEXT NOT NULL,
  id_hash TEXT NOT NULL,
  id_masked TEXT NOT NULL,
  name_masked TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2, 3)),
  sub_code TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  decided_at INTEGER
);
CREATE INDEX identity_verifications_user ON identity_verifications(user_id, created_at);

-- The verified identity of an account. UNIQUE(id_hash): one person verifies at most one account, whatever the race.
CREATE TABLE user_identities (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  id_hash TEXT NOT NULL UNIQUE,
  name_enc TEXT NOT NULL,
  id_no_enc TEXT NOT NULL,
  name_masked TEXT NOT NULL,
  id_masked TEXT NOT NULL,
  verification_id INTEGER NOT NULL,
  verified_at INTEGER NOT NULL
);

-- Development only: verdicts recorded by the local face-verification simulator page.
CREATE TABLE face_simulator_sessions (
  certify_id TEXT PRIMARY KEY,
  outer_order_no TEXT NOT NULL,
  name_masked TEXT NOT NULL,
  return_url TEXT NOT NULL,
  verdict TEXT CHECK (verdict IN ('T', 'F')),
  created_at INTEGER NOT NULL
);

-- Company licence images in R2 (private). One row per upload.
CREATE TABLE company_licence_uploads (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  r2_key TEXT NOT NULL UNIQUE,
  mime TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX company_licence_uploads_user ON company_licence_uploads(user_id, id);

-- Company authentication applications. state mirrors users.company_auth_state: 4 pending, 1 approved,
-- 2 individual (licence not accepted as a company, applicant verified as a person), 3 revoked (was approved; keeps
-- individual standing), 5 rejected. One open (pending) application per user.
CREATE TABLE company_auths (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  company_name TEXT NOT NULL,
  credit_code TEXT NOT NULL,
  credit_hash TEXT NOT NULL,
  legal_person TEXT NOT NULL,
  licence_upload_id INTEGER NOT NULL REFERENCES company_licence_uploads(id),
  state INTEGER NOT NULL DEFAULT 4 CHECK (state IN (1, 2, 3, 4, 5)),
  user_remark TEXT NOT NULL DEFAULT '',
  review_remark TEXT NOT NULL DEFAULT '',
  reviewer_id INTEGER,
  created_at INTEGER NOT NULL,
  reviewed_at INTEGER
);
CREATE INDEX company_auths_user ON company_auths(user_id, id);
CREATE INDEX company_auths_state ON company_auths(state, created_at);
CREATE UNIQUE INDEX company_auths_one_pending ON company_auths(user_id) WHERE state = 4;
-- An approved company belongs to one account.
CREATE UNIQUE INDEX company_auths_one_company ON company_auths(credit_hash) WHERE state = 1;

-- Audit trail of company reviews.
CREATE TABLE company_auth_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  company_auth_id INTEGER NOT NULL REFERENCES company_auths(id),
  from_state INTEGER NOT NULL,
  to_state INTEGER NOT NULL,
  actor_id INTEGER NOT NULL,
  remark TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);

-- Phone change: the old phone was re-verified; the new phone may be verified until expires_at.
CREATE TABLE phone_change_grants (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  expires_at INTEGER NOT NULL
);

-- Per-user read state of notices (the notices themselves are home_notices, migrations/0005).
CREATE TABLE notice_reads (
  user_id INTEGER NOT NULL REFERENCES users(id),
  notice_id INTEGER NOT NULL,
  read_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, notice_id)
);

-- The welfare trial package definition (one enabled at a time is offered).
CREATE TABLE welfare_meals (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  product_type INTEGER NOT NULL CHECK (product_type IN (10, 40)),
  billing_method INTEGER NOT NULL DEFAULT 1 CHECK (billing_method IN (1, 2)),
  ip_duration_minutes INTEGER NOT NULL,
  ip_count INTEGER NOT NULL CHECK (ip_count > 0),
  valid_days INTEGER NOT NULL CHECK (valid_days > 0),
  enabled INTEGER NOT NULL DEFAULT 1
);

-- Welfare claims. UNIQUE(identity_key): once per real person / company, not per account.
CREATE TABLE welfare_claims (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ref TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  identity_key TEXT NOT NULL UNIQUE,
  meal_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

-- Red-packet launches: at most `budget` packets are received; `received` is bumped in the same transaction.
CREATE TABLE red_launches (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  product_type INTEGER NOT NULL CHECK (product_type IN (10, 40)),
  ip_duration_minutes INTEGER NOT NULL,
  ip_count INTEGER NOT NULL CHECK (ip_count > 0),
  valid_days INTEGER NOT NULL CHECK (valid_days > 0),
  budget INTEGER NOT NULL CHECK (budget >= 0),
  received INTEGER NOT NULL DEFAULT 0,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  CHECK (received <= budget)
);
CREATE INDEX red_launches_window ON red_launches(enabled, starts_at);

-- A received packet. state 1 received (unused), 2 used (turned into a package). seen_at: shown as "new" until seen.
CREATE TABLE red_records (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ref TEXT NOT NULL UNIQUE,
  launch_id INTEGER NOT NULL REFERENCES red_launches(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2)),
  package_id INTEGER,
  seen_at INTEGER,
  received_at INTEGER NOT NULL,
  used_at INTEGER,
  expires_at INTEGER NOT NULL,
  UNIQUE (launch_id, user_id)
);
CREATE INDEX red_records_user ON red_records(user_id, received_at);

-- Promotion: a user's own invitation code (the did of their link).
CREATE TABLE user_promotions (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  code TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

-- Promotion material (Config.UserPromotionMaterial).
CREATE TABLE promotion_materials (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('text', 'image')),
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1
);

-- Sellers (sales staff). A visitor arriving with ?did=<code>&from=seller is assigned the seller at registration.
CREATE TABLE sellers (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  phone TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1
);

-- Who invited whom (attributed once, at registration).
CREATE TABLE invitations (
  invitee_id INTEGER PRIMARY KEY REFERENCES users(id),
  promoter_id INTEGER NOT NULL REFERENCES users(id),
  keyword TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX invitations_promoter ON invitations(promoter_id, created_at);

-- Commission ledger. UNIQUE(order_no): one accrual per paid order, whatever the duplicate callbacks. Reversal of an
-- entry already withdrawn is a negative entry keyed 'R:'||order_no. state 1 available, 2 in a withdrawal, 3 reversed.
CREATE TABLE commission_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  promoter_id INTEGER NOT NULL REFERENCES users(id),
  invitee_id INTEGER NOT NULL REFERENCES users(id),
  order_no TEXT NOT NULL UNIQUE,
  product_type INTEGER NOT NULL,
  base_fen INTEGER NOT NULL,
  rate_bp INTEGER NOT NULL,
  amount_fen INTEGER NOT NULL,
  is_first INTEGER NOT NULL DEFAULT 0,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2, 3)),
  withdrawal_id INTEGER,
  created_at INTEGER NOT NULL,
  reversed_at INTEGER
);
CREATE INDEX commission_entries_promoter ON commission_entries(promoter_id, state, created_at);
CREATE INDEX commission_entries_invitee ON commission_entries(invitee_id);

-- Withdrawal requests. state 1 requested, 2 approved, 3 paid, 4 rejected. One open (1 or 2) request per user.
CREATE TABLE withdrawals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ref TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id),
  amount_fen INTEGER NOT NULL CHECK (amount_fen > 0),
  account_name TEXT NOT NULL,
  account_no TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2, 3, 4)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX withdrawals_one_open ON withdrawals(user_id) WHERE state IN (1, 2);
CREATE INDEX withdrawals_state ON withdrawals(state, created_at);

-- Audit trail of withdrawals (every transition, who and why).
CREATE TABLE withdrawal_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  withdrawal_id INTEGER NOT NULL REFERENCES withdrawals(id),
  from_state INTEGER NOT NULL,
  to_state INTEGER NOT NULL,
  actor_id INTEGER NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX withdrawal_events_withdrawal ON withdrawal_events(withdrawal_id, id);
