-- Decision 249: a node's usage rows for the leases its object holds are kept in that object (per lease and client
-- address); D1 takes only their hourly totals per customer, added once per batch (node_batches marks the batch in the
-- same transaction). rollupHours adds these hours to the ones it sums from node_usage. Grows with customers × hours,
-- like usage_hourly.
CREATE TABLE node_usage_hours (
  user_id INTEGER NOT NULL,
  hour_start INTEGER NOT NULL,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  connections INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, hour_start)
) WITHOUT ROWID;
