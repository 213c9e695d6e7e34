-- The candidate seeks read only their index (docs/decisions/186). Each seek walks up to `window` entries of one of
-- these indexes in rnd order and checks a call's expiry and protocol on every entry; with those two columns in the
-- index the check needs no row of proxy_ips, so a seek reads a few index pages instead of one table page per
-- candidate (60 random pages for num=10 on a pool larger than the page cache). `healthy = 1` is the indexes' own
-- condition, so SQLite drops it from the residual. Region exclusions and carrier filters still read the row.
DROP INDEX proxy_ips_rnd;
DROP INDEX proxy_ips_rnd_province;
DROP INDEX proxy_ips_rnd_city;
CREATE INDEX proxy_ips_rnd ON proxy_ips(pool, rnd, expires_at, protocols) WHERE healthy = 1;
CREATE INDEX proxy_ips_rnd_province ON proxy_ips(pool, province_key, rnd, expires_at, protocols) WHERE healthy = 1;
CREATE INDEX proxy_ips_rnd_city ON proxy_ips(pool, city_key, rnd, expires_at, protocols) WHERE healthy = 1;
