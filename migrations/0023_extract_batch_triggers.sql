-- Two statements fewer in every extraction batch (docs/decisions/184): each statement of a D1 batch costs its own
-- round of work in the database (its result, its change counts) on top of its SQL.
-- 1. The lease notice of an extraction lease (node_changes kind 'a', for the exit's node) is written by the insert of
--    the assignment itself, as every assignment needs one. Only ip_assignments inserts write it; no code checks an
--    assignment insert's change count (decision 044 moved the other feed writes out of triggers for that reason).
CREATE TRIGGER node_changes_assignment_insert AFTER INSERT ON ip_assignments
BEGIN
  INSERT INTO node_changes (kind, ref, node_id, created_at)
  SELECT 'a', NEW.id, node_id, NEW.assigned_at FROM proxy_ips WHERE id = NEW.ip_id;
END;
-- 2. A call's extract_charges row goes when its scratch picks are deleted at the end of the batch (a call is charged
--    only when it drew at least one IP, so a charged call always has picks).
CREATE TRIGGER extract_charges_cleanup AFTER DELETE ON extract_picks
BEGIN
  DELETE FROM extract_charges WHERE call_id = OLD.call_id;
END;
