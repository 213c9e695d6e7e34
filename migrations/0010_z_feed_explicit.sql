-- Follow-up to 0010_node_contract (docs/decisions/044): D1 counts rows written by triggers in `meta.changes`, which
-- breaks every `changes === 1` check on the tables those triggers watched (package charges, white-list edits, ...).
-- The change feed is therefore written explicitly by the code that makes each change (src/server/db/node-feed.ts),
-- and package state/expiry changes are found by proxy_packages.updated_at in a time window. Only two triggers stay:
-- users.status (no code updates it; operators suspend accounts with SQL) and the proxy-account default on insert.
DROP TRIGGER node_changes_assignment_insert;
DROP TRIGGER node_changes_assignment_update;
DROP TRIGGER node_changes_fixed_insert;
DROP TRIGGER node_changes_fixed_update;
DROP TRIGGER node_changes_white_list_insert;
DROP TRIGGER node_changes_white_list_update;
DROP TRIGGER node_changes_white_list_delete;
DROP TRIGGER node_changes_account_update;
DROP TRIGGER node_changes_package_update;
CREATE INDEX proxy_packages_updated ON proxy_packages(updated_at);
