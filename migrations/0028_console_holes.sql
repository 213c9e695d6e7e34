-- The console's and the node API's holes (issue 27; docs/decisions/197 and 198).

-- Failed operator logins under a name that is not an active operator: counted and locked exactly like an operator
-- account (so a locked account and an unknown name answer the same), bounded (one row per name, purged daily) and
-- never written to the audit log.
CREATE TABLE operator_name_failures (
  username TEXT PRIMARY KEY,
  failures INTEGER NOT NULL DEFAULT 0,
  locked_until INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
CREATE INDEX operator_name_failures_time ON operator_name_failures(updated_at);

-- The audit log refuses REPLACE as it refuses UPDATE and DELETE: REPLACE deletes the conflicting row without firing
-- the DELETE trigger (recursive_triggers is off), so an INSERT naming an id that exists is refused before it runs.
CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
WHEN NEW.id IS NOT NULL AND EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'audit log is append-only');
END;

-- A batch whose required change matched nothing ends with an INSERT of ok = 0 here: the CHECK fails and D1 rolls the
-- whole batch back, so a refused action writes nothing (src/server/domain/operators-audit.ts auditedChange).
CREATE TABLE refused_write_guard (
  ok INTEGER NOT NULL CONSTRAINT refused_write_guard CHECK (ok = 1)
);

-- Heartbeats carry a sequence: the highest one accepted per node (0 = the node never sent one).
ALTER TABLE proxy_nodes ADD COLUMN heartbeat_seq INTEGER NOT NULL DEFAULT 0;

-- Grants above the configured size wait for a second operator (state 1 pending, 2 approved, 3 rejected).
CREATE TABLE grant_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  params TEXT NOT NULL,                    -- the Admin.GrantPackage input, JSON
  summary TEXT NOT NULL,
  requested_by INTEGER NOT NULL,
  requested_name TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2, 3)),
  decided_by INTEGER,
  decided_name TEXT NOT NULL DEFAULT '',
  decided_at INTEGER,
  package_id INTEGER,
  created_at INTEGER NOT NULL,
  CHECK (decided_by IS NULL OR decided_by != requested_by)
);
CREATE INDEX grant_requests_state ON grant_requests(state, id);
