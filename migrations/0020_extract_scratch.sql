-- Per-call scratch rows of the one-round-trip extraction (docs/decisions/171). Every row is written and deleted inside
-- the same batch (one transaction), so both tables are empty between calls; they exist because the choice of IPs
-- and of the package is made in SQL and later statements of the batch must see it.
-- extract_picks: the candidate IPs the seeks found for a call (distance from the random start), `chosen` marks the n
-- drawn among the first window.
CREATE TABLE extract_picks (
  call_id TEXT NOT NULL,
  ip_id INTEGER NOT NULL,
  dist INTEGER NOT NULL,
  chosen INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (call_id, ip_id)
) WITHOUT ROWID;
-- extract_charges: the package a call charged, for how many IPs; present only when the charge happened, so the log,
-- the assignments and the lease notices are written exactly when it exists.
CREATE TABLE extract_charges (
  call_id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL,
  package_id INTEGER NOT NULL,
  n INTEGER NOT NULL,
  duration_minutes INTEGER NOT NULL
) WITHOUT ROWID;
