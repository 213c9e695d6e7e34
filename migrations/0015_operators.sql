-- Operator console (issue 11; docs/decisions/101 and 102): operator accounts (separate from customers), their sessions,
-- the append-only audit log and the retention job's runs. Forward-only. Times are epoch milliseconds.

-- Operator accounts. Passwords are hashed like customers' (PBKDF2-SHA256); the TOTP secret is sealed with AES-GCM
-- under ID_ENCRYPTION_KEY. status: 1 active, 2 disabled.
CREATE TABLE operators (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE COLLATE NOCASE,
  display_name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'finance', 'support', 'content', 'ops')),
  status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (1, 2)),
  password_hash TEXT NOT NULL,
  totp_secret_enc TEXT,                    -- NULL until the first login enrols a second factor
  totp_last_step INTEGER NOT NULL DEFAULT 0, -- the newest 30-second step accepted (a code is never accepted twice)
  failed_logins INTEGER NOT NULL DEFAULT 0,  -- wrong passwords and wrong codes together
  locked_until INTEGER NOT NULL DEFAULT 0,
  last_login_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- No statement may leave the console without an active admin (disable or demote the last one). Operators are never
-- deleted, only disabled (their id stays in the audit log).
CREATE TRIGGER operators_keep_last_admin_update BEFORE UPDATE OF role, status ON operators
WHEN OLD.role = 'admin' AND OLD.status = 1 AND (NEW.role != 'admin' OR NEW.status != 1)
  AND (SELECT count(*) FROM operators WHERE role = 'admin' AND status = 1 AND id != OLD.id) = 0
BEGIN
  SELECT RAISE(ABORT, 'last active admin');
END;

-- Operator sessions: only the SHA-256 of the token is stored. stage 'totp' = password checked, second factor pending
-- (short life); 'active' = both factors checked.
CREATE TABLE operator_sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash TEXT NOT NULL UNIQUE,
  operator_id INTEGER NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  stage TEXT NOT NULL CHECK (stage IN ('totp', 'active')),
  enrol_secret_enc TEXT,                   -- the secret offered while enrolling (sealed), until a code confirms it
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  ip TEXT NOT NULL,
  user_agent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX operator_sessions_operator ON operator_sessions(operator_id);
CREATE INDEX operator_sessions_expires ON operator_sessions(expires_at);

-- The audit log: every operator write, written in the same batch as the change, and every operator login.
-- Append-only: triggers refuse UPDATE and DELETE.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  operator_id INTEGER,                     -- NULL for a failed login under an unknown username
  operator_name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'finance', 'support', 'content', 'ops', 'none')),
  action TEXT NOT NULL,
  target TEXT NOT NULL DEFAULT '',         -- e.g. user:12, order:P2026..., operator:3
  before_summary TEXT NOT NULL DEFAULT '',
  after_summary TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  client_ip TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_time ON audit_log(created_at);
CREATE INDEX audit_log_operator ON audit_log(operator_id, created_at);
CREATE INDEX audit_log_target ON audit_log(target, created_at);
CREATE INDEX audit_log_action ON audit_log(action, created_at);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit log is append-only');
END;

-- Runs of the retention purge (the dashboard shows the newest).
CREATE TABLE retention_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  retention_days INTEGER NOT NULL CHECK (retention_days >= 180),
  rows_removed INTEGER NOT NULL DEFAULT 0,
  detail TEXT NOT NULL DEFAULT '{}'        -- rows removed per table, JSON
);

-- Indexes for the console's dashboard and searches.
CREATE INDEX orders_paid ON orders(state, paid_at);
CREATE INDEX orders_time ON orders(created_at);
CREATE INDEX users_created ON users(created_at);
CREATE INDEX payments_refund_needed ON payments(refund_needed) WHERE refund_needed = 1;
