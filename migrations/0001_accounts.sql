-- Accounts, sessions, SMS verification codes, the development SMS outbox and path redirects.
-- Times are epoch milliseconds; money is integer fen.

CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  phone TEXT NOT NULL UNIQUE,
  password_hash TEXT,                      -- pbkdf2-sha256$iterations$salt_b64$hash_b64, NULL until set
  status INTEGER NOT NULL DEFAULT 1,       -- 1 active, 2 unavailable (disabled)
  role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'operator')),
  failed_logins INTEGER NOT NULL DEFAULT 0,
  locked_until INTEGER NOT NULL DEFAULT 0,
  is_identity_auth INTEGER NOT NULL DEFAULT 0,
  company_auth_state INTEGER NOT NULL DEFAULT 0, -- 0 none, 1 approved, 2/3 treated as individual, 4 pending
  proxy_api_opened INTEGER NOT NULL DEFAULT 0,
  source_type INTEGER NOT NULL DEFAULT 1,  -- 1 PC, 2 mobile, at registration
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE sessions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash TEXT NOT NULL UNIQUE,         -- SHA-256 hex of the random token; the token itself is never stored
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,             -- absolute expiry
  ip TEXT,
  user_agent TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expires ON sessions(expires_at);

CREATE TABLE sms_codes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  phone TEXT NOT NULL,
  purpose TEXT NOT NULL,                   -- login, change_phone_old, change_phone_new, change_pwd
  code_hash TEXT NOT NULL,                 -- HMAC-SHA256(secret, purpose:phone:code)
  client_ip TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  consumed_at INTEGER,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sms_codes_phone_time ON sms_codes(phone, created_at);
CREATE INDEX sms_codes_ip_time ON sms_codes(client_ip, created_at);

-- Development only: messages the outbox provider "sent". Never written in production.
CREATE TABLE sms_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  phone TEXT NOT NULL,
  template TEXT NOT NULL,
  params TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX sms_outbox_phone ON sms_outbox(phone, id);

-- Path redirects managed by operators; looked up by the edge and cached in KV.
CREATE TABLE path_redirects (
  from_path TEXT PRIMARY KEY,
  to_path TEXT NOT NULL,
  status INTEGER NOT NULL DEFAULT 301 CHECK (status IN (301, 302, 307, 308)),
  updated_at INTEGER NOT NULL
);
