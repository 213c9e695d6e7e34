-- Extraction and reads at scale (docs/decisions/081): a random key per pool IP so a call picks candidates by one
-- index seek from a random start instead of sorting the pool by random(); per-candidate dedup probes; a per-client-IP
-- counter of wrong extraction keys.

-- rnd: a fixed pseudo-random permutation of the id (multiplicative hashing by an odd constant modulo 2^31, a bijection
-- on [0, 2^31)): a virtual generated column, so inserts and upserts of pool IPs stay as they are and no trigger or
-- backfill is needed; only the indexes below store it.
ALTER TABLE proxy_ips ADD COLUMN rnd INTEGER GENERATED ALWAYS AS ((id * 2654435761) % 2147483648) VIRTUAL;

-- Candidate seeks: the whole pool, one province, one city (healthy IPs only; the filters of a call are residual).
CREATE INDEX proxy_ips_rnd ON proxy_ips(pool, rnd) WHERE healthy = 1;
CREATE INDEX proxy_ips_rnd_province ON proxy_ips(pool, province_key, rnd) WHERE healthy = 1;
CREATE INDEX proxy_ips_rnd_city ON proxy_ips(pool, city_key, rnd) WHERE healthy = 1;

-- dedup=2 probe: does this user still hold this IP? (dedup=1 probes ip_assignments_user_day (user_id, day, ip_id)).
CREATE INDEX ip_assignments_user_ip ON ip_assignments(user_id, ip_id, expires_at);

-- Wrong extraction keys per calling IP: a window opens at the first failure and lasts EXTRACT_KEY_FAIL_WINDOW_MS.
CREATE TABLE extract_key_failures (
  client_ip TEXT PRIMARY KEY,
  started_at INTEGER NOT NULL,
  count INTEGER NOT NULL
) WITHOUT ROWID;

-- Hot per-customer reads (docs/decisions/081): indexes led by user_id, so the planner stops answering one customer's
-- query through the cross-customer indexes of the sweeps (proxy_packages_expiry, white_list_enabled, orders_unpaid),
-- and the lists walk their order instead of sorting all of a heavy customer's rows.
CREATE INDEX proxy_packages_user_live ON proxy_packages(user_id, state, expires_at);
CREATE INDEX white_list_user_live ON white_list(user_id, enabled, expires_at);
CREATE INDEX orders_user_state ON orders(user_id, state, expires_at);
CREATE INDEX ip_assignments_user_time ON ip_assignments(user_id, assigned_at);
-- Charts sum `returned` per bucket: the same index with it appended answers them without reading the table.
DROP INDEX extract_logs_user_time;
CREATE INDEX extract_logs_user_time ON extract_logs(user_id, created_at, returned);
