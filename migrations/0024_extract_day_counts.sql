-- Per-customer daily extraction counters (docs/decisions/185): the records list's total over 180 days and the 7/30-day
-- charts add up at most one row per day instead of counting every logged call of the customer's history.
-- day_start is the Asia/Shanghai midnight (epoch ms) of the day the calls were logged; calls counts every logged call
-- (charged or refused, as the log does) and ips the IPs they returned.
CREATE TABLE extract_day_counts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  day_start INTEGER NOT NULL,
  calls INTEGER NOT NULL,
  ips INTEGER NOT NULL,
  UNIQUE (user_id, day_start)
);
-- The retention purge trims the counters by day, oldest first.
CREATE INDEX extract_day_counts_day ON extract_day_counts(day_start);

-- Kept exact by the log insert itself, in the same statement (so in the same transaction as the extraction's batch).
-- The log is never updated; its rows are deleted only by the retention purge, which trims the counters of the days it
-- empties (a window a customer can query never reaches past the retention cutoff: both are 180 days at the least).
CREATE TRIGGER extract_day_counts_log AFTER INSERT ON extract_logs
BEGIN
  INSERT INTO extract_day_counts (user_id, day_start, calls, ips)
  VALUES (NEW.user_id, ((CAST(NEW.created_at AS INTEGER) + 28800000) / 86400000) * 86400000 - 28800000, 1,
          NEW.returned)
  ON CONFLICT (user_id, day_start) DO UPDATE SET calls = calls + 1, ips = ips + excluded.ips;
END;

-- The counters of the history logged so far.
INSERT INTO extract_day_counts (user_id, day_start, calls, ips)
SELECT user_id, ((CAST(created_at AS INTEGER) + 28800000) / 86400000) * 86400000 - 28800000 AS d, count(*),
       sum(returned)
FROM extract_logs WHERE true GROUP BY user_id, d;
