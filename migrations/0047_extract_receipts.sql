-- PROTOTYPE (issue 26, decision 243): a charged extraction writes one receipt row instead of its log row and one lease
-- row per IP; the receipt lives until the customer's object has kept the call, then it is deleted.
CREATE TABLE extract_receipts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
-- Charged calls per hour (the console counts them; a log row in D1 no longer exists for them).
ALTER TABLE extract_hour_counts ADD COLUMN charged INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER extract_hour_counts_receipt AFTER INSERT ON extract_receipts
BEGIN
  INSERT INTO extract_hour_counts (user_id, hour_start, calls, ips, charged)
  VALUES (NEW.user_id, (CAST(NEW.created_at AS INTEGER) / 3600000) * 3600000, 1, json_array_length(NEW.body, '$.ips'), 1)
  ON CONFLICT (user_id, hour_start) DO UPDATE SET calls = calls + 1, ips = ips + excluded.ips, charged = charged + 1;
END;
