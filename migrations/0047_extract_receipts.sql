-- PROTOTYPE (issue 26, decision 243): a charged extraction writes one receipt row instead of its log row and one lease
-- row per IP; the receipt lives until the customer's object has kept the call, then it is deleted.
CREATE TABLE extract_receipts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE TRIGGER extract_hour_counts_receipt AFTER INSERT ON extract_receipts
BEGIN
  INSERT INTO extract_hour_counts (user_id, hour_start, calls, ips)
  VALUES (NEW.user_id, (CAST(NEW.created_at AS INTEGER) / 3600000) * 3600000, 1, json_array_length(NEW.body, '$.ips'))
  ON CONFLICT (user_id, hour_start) DO UPDATE SET calls = calls + 1, ips = ips + excluded.ips;
END;
