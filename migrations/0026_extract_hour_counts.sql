-- Hourly extraction counters replace the daily ones of 0024 (docs/decisions/187): the 24-hour chart adds up at most
-- 24 rows instead of reading every call of the last day from the log, and the 7/30-day charts and the 180-day records
-- total add up the hours of their days. Shanghai is a whole number of hours from UTC, so every Shanghai day is 24 whole
-- hours. Without rowid, a customer's hours lie together in key order: a 180-day window is one short range of pages.
-- hour_start is the start (epoch ms) of the hour the calls were logged in; calls counts every logged call (charged or
-- refused, as the log does) and ips the IPs they returned.
CREATE TABLE extract_hour_counts (
  user_id INTEGER NOT NULL,
  hour_start INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  ips INTEGER NOT NULL,
  PRIMARY KEY (user_id, hour_start)
) WITHOUT ROWID;
-- The retention purge trims the counters by hour, oldest first.
CREATE INDEX extract_hour_counts_hour ON extract_hour_counts(hour_start);

DROP TRIGGER extract_day_counts_log;
-- Kept exact by the log insert itself, in the same statement (so in the same transaction as the extraction's batch).
CREATE TRIGGER extract_hour_counts_log AFTER INSERT ON extract_logs
BEGIN
  INSERT INTO extract_hour_counts (user_id, hour_start, calls, ips)
  VALUES (NEW.user_id, (CAST(NEW.created_at AS INTEGER) / 3600000) * 3600000, 1, NEW.returned)
  ON CONFLICT (user_id, hour_start) DO UPDATE SET calls = calls + 1, ips = ips + excluded.ips;
END;

-- The counters of the history logged so far.
INSERT INTO extract_hour_counts (user_id, hour_start, calls, ips)
SELECT user_id, (CAST(created_at AS INTEGER) / 3600000) * 3600000 AS h, count(*), sum(returned)
FROM extract_logs WHERE true GROUP BY user_id, h;

DROP TABLE extract_day_counts;
