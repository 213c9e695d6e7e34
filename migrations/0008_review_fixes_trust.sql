-- Review fixes for accounts and trust (docs/decisions/002 and 061): one welfare trial per account whatever its identity
-- key becomes, and a per-client-IP limit on password login attempts. Forward-only; earlier migrations are unchanged.

-- Welfare claims: alias_of is NULL for a real claim (the one that created a package). A non-NULL alias_of marks a row
-- that only keeps another identity key of the same account claimed (written when the account binds a personal
-- identity after claiming under a company or account key). At most one real claim per account.
ALTER TABLE welfare_claims ADD COLUMN alias_of INTEGER REFERENCES welfare_claims(id);

-- Accounts that claimed twice before this migration (identity key changed between claims) keep their earliest claim as
-- the real one; later rows become aliases, so their identity keys stay claimed and no package is touched.
UPDATE welfare_claims
SET alias_of = (SELECT min(w.id) FROM welfare_claims w WHERE w.user_id = welfare_claims.user_id)
WHERE id > (SELECT min(w.id) FROM welfare_claims w WHERE w.user_id = welfare_claims.user_id);

CREATE UNIQUE INDEX welfare_claims_one_per_user ON welfare_claims(user_id) WHERE alias_of IS NULL;
CREATE INDEX welfare_claims_user ON welfare_claims(user_id);

-- Password login attempts per client IP (the limit is enforced inside the INSERT, as for SMS codes). A successful
-- login removes its own row, so only failures count; rows older than two days are purged daily.
CREATE TABLE login_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_ip TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX login_attempts_ip ON login_attempts(client_ip, created_at);
