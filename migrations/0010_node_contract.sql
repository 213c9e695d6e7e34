-- Delivery made real (docs/node-api.md, contract v2; docs/decisions/044, 045): the node change feed, per-user proxy
-- accounts, usage v2 with client IP and connections, refused connections, AES extraction tokens used once.

-- The proxy account shown in the personal centre (password retrievable, like the extraction key). Nodes get
-- SHA-256(username ':' password). Rows created without an account get one from the trigger below.
ALTER TABLE proxy_api_credentials ADD COLUMN proxy_username TEXT NOT NULL DEFAULT '';
ALTER TABLE proxy_api_credentials ADD COLUMN proxy_password TEXT NOT NULL DEFAULT '';
UPDATE proxy_api_credentials SET proxy_username = 'u' || lower(hex(randomblob(5))),
  proxy_password = lower(hex(randomblob(10))) WHERE proxy_username = '';
CREATE UNIQUE INDEX proxy_api_credentials_username ON proxy_api_credentials(proxy_username)
  WHERE proxy_username != '';
CREATE TRIGGER proxy_account_default AFTER INSERT ON proxy_api_credentials WHEN NEW.proxy_username = ''
BEGIN
  UPDATE proxy_api_credentials SET proxy_username = 'u' || lower(hex(randomblob(5))),
    proxy_password = lower(hex(randomblob(10))) WHERE user_id = NEW.user_id;
END;

-- api_version 2: the node heartbeats /node/v2, so its exits not seen for 3 intervals are marked unhealthy.
ALTER TABLE proxy_nodes ADD COLUMN api_version INTEGER NOT NULL DEFAULT 1;

-- The change feed nodes pull deltas from (cursor = last seq). Written by the triggers below, so every change lands
-- in the same transaction as the row it describes, whatever code path made it.
--   kind 'a' ref = ip_assignments.id (extraction lease), node_id = the exit's node
--   kind 'f' ref = fixed_allocations.id (exclusive lease), node_id = the exit's node
--   kind 'u' ref = users.id (status, white list, proxy account), node_id NULL (every node)
--   kind 'p' ref = proxy_packages.id (state or expiry: refund, disable, expiry, renewal), node_id NULL
CREATE TABLE node_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('a', 'f', 'u', 'p')),
  ref INTEGER NOT NULL,
  node_id INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX node_changes_time ON node_changes(created_at);

CREATE TRIGGER node_changes_assignment_insert AFTER INSERT ON ip_assignments
BEGIN
  INSERT INTO node_changes (kind, ref, node_id, created_at)
  SELECT 'a', NEW.id, node_id, unixepoch() * 1000 FROM proxy_ips WHERE id = NEW.ip_id;
END;
CREATE TRIGGER node_changes_assignment_update AFTER UPDATE OF expires_at ON ip_assignments
WHEN OLD.expires_at != NEW.expires_at
BEGIN
  INSERT INTO node_changes (kind, ref, node_id, created_at)
  SELECT 'a', NEW.id, node_id, unixepoch() * 1000 FROM proxy_ips WHERE id = NEW.ip_id;
END;
CREATE TRIGGER node_changes_fixed_insert AFTER INSERT ON fixed_allocations
BEGIN
  INSERT INTO node_changes (kind, ref, node_id, created_at)
  SELECT 'f', NEW.id, node_id, unixepoch() * 1000 FROM proxy_ips WHERE id = NEW.ip_id;
END;
CREATE TRIGGER node_changes_fixed_update AFTER UPDATE OF released_at, expires_at ON fixed_allocations
WHEN OLD.released_at != NEW.released_at OR OLD.expires_at != NEW.expires_at
BEGIN
  INSERT INTO node_changes (kind, ref, node_id, created_at)
  SELECT 'f', NEW.id, node_id, unixepoch() * 1000 FROM proxy_ips WHERE id = NEW.ip_id;
END;
CREATE TRIGGER node_changes_white_list_insert AFTER INSERT ON white_list
BEGIN
  INSERT INTO node_changes (kind, ref, created_at) VALUES ('u', NEW.user_id, unixepoch() * 1000);
END;
CREATE TRIGGER node_changes_white_list_update AFTER UPDATE OF ip, enabled, expires_at ON white_list
BEGIN
  INSERT INTO node_changes (kind, ref, created_at) VALUES ('u', NEW.user_id, unixepoch() * 1000);
END;
CREATE TRIGGER node_changes_white_list_delete AFTER DELETE ON white_list
BEGIN
  INSERT INTO node_changes (kind, ref, created_at) VALUES ('u', OLD.user_id, unixepoch() * 1000);
END;
CREATE TRIGGER node_changes_account_update AFTER UPDATE OF proxy_username, proxy_password ON proxy_api_credentials
WHEN OLD.proxy_username != NEW.proxy_username OR OLD.proxy_password != NEW.proxy_password
BEGIN
  INSERT INTO node_changes (kind, ref, created_at) VALUES ('u', NEW.user_id, unixepoch() * 1000);
END;
CREATE TRIGGER node_changes_user_status AFTER UPDATE OF status ON users WHEN OLD.status != NEW.status
BEGIN
  INSERT INTO node_changes (kind, ref, created_at) VALUES ('u', NEW.id, unixepoch() * 1000);
END;
CREATE TRIGGER node_changes_package_update AFTER UPDATE OF state, expires_at ON proxy_packages
WHEN OLD.state != NEW.state OR OLD.expires_at != NEW.expires_at
BEGIN
  INSERT INTO node_changes (kind, ref, created_at) VALUES ('p', NEW.id, unixepoch() * 1000);
END;

-- Leases by exit (full snapshots, refusal attribution) and by package (refunds end them).
CREATE INDEX ip_assignments_ip_expiry ON ip_assignments(ip_id, expires_at);
CREATE INDEX ip_assignments_package_expiry ON ip_assignments(package_id, expires_at);

-- A node's pushed batches, stored once per (node, kind, batch id).
CREATE TABLE node_batches (
  node_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('usage', 'refusals')),
  batch_id TEXT NOT NULL,
  rows INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (node_id, kind, batch_id)
);
CREATE INDEX node_batches_time ON node_batches(received_at);

-- Usage v2: bytes and connections per user, exit, client IP and period.
CREATE TABLE node_usage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id INTEGER NOT NULL,
  batch_id TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  ip TEXT NOT NULL,
  port INTEGER NOT NULL,
  client_ip TEXT NOT NULL,
  period_start INTEGER NOT NULL,
  period_end INTEGER NOT NULL,
  bytes_in INTEGER NOT NULL,
  bytes_out INTEGER NOT NULL,
  connections INTEGER NOT NULL,
  received_at INTEGER NOT NULL
);
CREATE INDEX node_usage_v2_user_time ON node_usage(user_id, period_start);
CREATE INDEX node_usage_v2_time ON node_usage(period_start);

-- Refused connections. user_id: given by the node (attributed 0) or a lease holder of the exit at that moment
-- (attributed 1); NULL when nobody held it.
CREATE TABLE node_refusals (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id INTEGER NOT NULL,
  batch_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  client_ip TEXT NOT NULL,
  ip TEXT NOT NULL,
  port INTEGER NOT NULL,
  user_id INTEGER,
  attributed INTEGER NOT NULL DEFAULT 0,
  code TEXT NOT NULL,
  received_at INTEGER NOT NULL
);
CREATE INDEX node_refusals_user_time ON node_refusals(user_id, at);
CREATE INDEX node_refusals_time ON node_refusals(at);

-- AES extraction tokens already used (each is accepted once while it is fresh).
CREATE TABLE extract_token_uses (
  user_id INTEGER NOT NULL,
  digest TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, digest)
);
CREATE INDEX extract_token_uses_expiry ON extract_token_uses(expires_at);
