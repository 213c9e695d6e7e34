-- The operator's egress rules (docs/node-api.md "Egress policy"; docs/decisions/193-194): blocked domain suffixes,
-- CIDRs and ports, and the product types allowed the SMTP ports. Every node enforces them from its contract: the full
-- snapshot always carries them; a delta carries them (whole) when egress_policy.updated_at moved since the node's
-- previous pull. Edited in the console (Admin.EgressRule*, role ops), each change audited in the same batch.
CREATE TABLE egress_rules (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('domain', 'cidr', 'port', 'smtp_product')),
  value TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  UNIQUE (kind, value)
);

-- One row: when the rule set last changed (epoch ms; 0 never).
CREATE TABLE egress_policy (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  updated_at INTEGER NOT NULL
);
INSERT INTO egress_policy (id, updated_at) VALUES (1, 0);
