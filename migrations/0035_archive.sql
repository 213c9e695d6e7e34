-- The delivery archive in R2 (docs/delivery.md, docs/decisions/219-221): which compressed batches exist for each
-- customer (so a page finds and counts a customer's archived rows without listing the bucket), and how far each kind
-- of history has left D1 (reads take rows before `through` from the archive and the rest from D1).
-- Bounded by customers x days x kinds, not by extractions: one row per (kind, day, customer, id block).
CREATE TABLE archive_objects (
  key TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('extract', 'lease', 'usage', 'refusal')),
  day TEXT NOT NULL,                 -- Asia/Shanghai date of the rows
  owner INTEGER NOT NULL,            -- the customer (user id; 0 when a refusal named nobody)
  part INTEGER NOT NULL,             -- id block (ids / ARCHIVE_PART_IDS)
  rows INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  written_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX archive_objects_owner ON archive_objects(owner, kind, day);
CREATE INDEX archive_objects_day ON archive_objects(day);

-- Per kind: every row dated before `through` is in the archive and no longer in D1 (advanced only after a delete).
CREATE TABLE archive_state (
  kind TEXT PRIMARY KEY CHECK (kind IN ('extract', 'lease', 'usage', 'refusal')),
  through INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
