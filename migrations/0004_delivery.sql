-- Proxy delivery: API credentials, the IP pool and its nodes, white lists, extraction (rate limit, assignments, log),
-- fixed-IP allocations, node usage reports and the hourly/daily roll-ups. Times are epoch milliseconds.
-- proxy_packages (0002) is consumed here, never altered.

-- One row per user: the extraction key (shown in the get-proxy tool, so kept retrievable) and the AES key/IV the
-- proxy API password is encrypted with (mineInfo.proxyApiKey / proxyApiIv). rate_limit: extraction calls per second.
CREATE TABLE proxy_api_credentials (
  user_id INTEGER PRIMARY KEY,
  api_key TEXT NOT NULL UNIQUE,
  aes_key TEXT NOT NULL,
  aes_iv TEXT NOT NULL,
  rate_limit INTEGER NOT NULL DEFAULT 10 CHECK (rate_limit > 0),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Proxy nodes; each signs its calls with its own secret (HMAC-SHA256). status 1 active, 0 disabled.
CREATE TABLE proxy_nodes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  secret TEXT NOT NULL,
  status INTEGER NOT NULL DEFAULT 1,
  last_seen_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

-- Exit IPs. pool: 10 short-lived dynamic, 40 long-lived static, 30 dedicated (fixed allocation).
-- protocols: bit mask 1 http, 2 https, 4 socks5. *_key: province/city without the 省/市 suffix, for name filters.
CREATE TABLE proxy_ips (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id INTEGER NOT NULL,
  pool INTEGER NOT NULL CHECK (pool IN (10, 30, 40)),
  ip TEXT NOT NULL,
  port INTEGER NOT NULL,
  protocols INTEGER NOT NULL DEFAULT 7,
  province TEXT NOT NULL,
  city TEXT NOT NULL,
  province_key TEXT NOT NULL,
  city_key TEXT NOT NULL,
  carrier TEXT NOT NULL CHECK (carrier IN ('电信', '联通', '移动')),
  expires_at INTEGER NOT NULL,
  healthy INTEGER NOT NULL DEFAULT 1,
  checked_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (ip, port)
);
CREATE INDEX proxy_ips_pick ON proxy_ips(pool, healthy, expires_at);
CREATE INDEX proxy_ips_node ON proxy_ips(node_id);

-- The white list: caller IPs allowed to extract (and to use the proxies). enabled 1 on, 0 off; expires_at 0 = never.
CREATE TABLE white_list (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  ip TEXT NOT NULL,
  remark TEXT NOT NULL DEFAULT '',
  enabled INTEGER NOT NULL DEFAULT 1,
  expires_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (user_id, ip)
);
CREATE INDEX white_list_enabled ON white_list(enabled, expires_at);

-- Per-user extraction counter for the current second (conditional upsert; see docs/decisions).
CREATE TABLE extract_rate (
  user_id INTEGER PRIMARY KEY,
  window_sec INTEGER NOT NULL,
  count INTEGER NOT NULL
);

-- Every extraction call (successful or not). code 0 success, else the extraction API's error code.
CREATE TABLE extract_logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  package_id INTEGER,
  product_type INTEGER NOT NULL DEFAULT 10,
  client_ip TEXT NOT NULL,
  requested INTEGER NOT NULL DEFAULT 0,
  returned INTEGER NOT NULL DEFAULT 0,
  code INTEGER NOT NULL,
  query TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX extract_logs_user_time ON extract_logs(user_id, created_at);
CREATE INDEX extract_logs_time ON extract_logs(created_at);

-- Each IP handed to a user: dedup (same day / still in use), the IP records and long-lived IP lists.
CREATE TABLE ip_assignments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  log_id INTEGER,
  ip_id INTEGER NOT NULL,
  product_type INTEGER NOT NULL,
  ip TEXT NOT NULL,
  port INTEGER NOT NULL,
  protocol TEXT NOT NULL,
  region TEXT NOT NULL,
  carrier TEXT NOT NULL,
  day TEXT NOT NULL,                       -- Asia/Shanghai date of the extraction
  assigned_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  remark TEXT NOT NULL DEFAULT ''
);
CREATE INDEX ip_assignments_user_day ON ip_assignments(user_id, day, ip_id);
CREATE INDEX ip_assignments_user_expiry ON ip_assignments(user_id, expires_at);
CREATE INDEX ip_assignments_time ON ip_assignments(assigned_at);

-- Dedicated IPs held by fixed/premium packages (types 30/50).
CREATE TABLE fixed_allocations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  ip_id INTEGER NOT NULL,
  ip TEXT NOT NULL,
  port INTEGER NOT NULL,
  province TEXT NOT NULL,
  city TEXT NOT NULL,
  carrier TEXT NOT NULL,
  remark TEXT NOT NULL DEFAULT '',
  allocated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  released_at INTEGER NOT NULL DEFAULT 0,
  UNIQUE (package_id, ip_id)
);
CREATE INDEX fixed_allocations_user ON fixed_allocations(user_id, released_at, expires_at);
CREATE INDEX fixed_allocations_ip ON fixed_allocations(ip_id, released_at);

-- Byte counts pushed by nodes; (node, batch, user) makes a retried push harmless.
CREATE TABLE node_usage_reports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id INTEGER NOT NULL,
  batch_id TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  bytes_in INTEGER NOT NULL,
  bytes_out INTEGER NOT NULL,
  period_start INTEGER NOT NULL,
  period_end INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  UNIQUE (node_id, batch_id, user_id)
);
CREATE INDEX node_usage_user_time ON node_usage_reports(user_id, period_start);
CREATE INDEX node_usage_time ON node_usage_reports(period_start);

-- Roll-ups (recomputed idempotently by the jobs): extraction calls/IPs and bytes per user per hour and per day.
CREATE TABLE usage_hourly (
  user_id INTEGER NOT NULL,
  hour_start INTEGER NOT NULL,
  extract_calls INTEGER NOT NULL DEFAULT 0,
  extract_ips INTEGER NOT NULL DEFAULT 0,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, hour_start)
);
CREATE INDEX usage_hourly_time ON usage_hourly(hour_start);
CREATE TABLE usage_daily (
  user_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  extract_calls INTEGER NOT NULL DEFAULT 0,
  extract_ips INTEGER NOT NULL DEFAULT 0,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, day)
);

-- A dedicated IP belongs to one live allocation at a time.
CREATE UNIQUE INDEX fixed_allocations_one_holder ON fixed_allocations(ip_id) WHERE released_at = 0;
