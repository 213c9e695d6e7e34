-- The user's proxy packages: the contract between buying (orders, welfare, red packets create and extend them) and
-- delivery (extraction consumes them). One row per package instance a user holds.
--   product_type: 10 short-lived dynamic, 40 long-lived static, 30 fixed IP, 50 premium/enterprise IP.
--   billing_method: 1 by count (按量: total_count IPs, no daily limit), 2 by time (按时: daily_limit IPs per day
--   until expires_at). Fixed/premium (30/50) packages hold ip_count dedicated IPs until expires_at.
--   state: 1 active, 2 expired, 3 used up, 4 deleted by the user, 5 disabled by an operator.
CREATE TABLE proxy_packages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  product_type INTEGER NOT NULL CHECK (product_type IN (10, 30, 40, 50)),
  billing_method INTEGER NOT NULL DEFAULT 1 CHECK (billing_method IN (1, 2)),
  name TEXT NOT NULL,                        -- e.g. 短效动态IP · 按量 10000个 · 5分钟
  ip_duration_minutes INTEGER NOT NULL,      -- lifetime of each extracted IP: 3/5/10/15/30 (type 10), 60..1440 (type 40)
  total_count INTEGER NOT NULL DEFAULT 0,    -- count packages: IPs bought (including bonus)
  remaining_count INTEGER NOT NULL DEFAULT 0 CHECK (remaining_count >= 0),
  daily_limit INTEGER NOT NULL DEFAULT 0,    -- time packages: IPs per day
  used_today INTEGER NOT NULL DEFAULT 0 CHECK (used_today >= 0),
  usage_day TEXT NOT NULL DEFAULT '',        -- Asia/Shanghai date (YYYY-MM-DD) that used_today counts
  ip_count INTEGER NOT NULL DEFAULT 0,       -- fixed/premium: dedicated IPs held
  starts_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (1, 2, 3, 4, 5)),
  remark TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL CHECK (source IN ('order', 'welfare', 'red_packet', 'demo', 'operator')),
  source_ref TEXT NOT NULL DEFAULT '',       -- order number, welfare claim id, red packet record id ...
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX proxy_packages_user_type ON proxy_packages(user_id, product_type, state);
CREATE INDEX proxy_packages_expiry ON proxy_packages(state, expires_at);
CREATE INDEX proxy_packages_source ON proxy_packages(source, source_ref);
