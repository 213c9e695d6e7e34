-- The node change feed row for an account status change is written by the code that changes it (the operator
-- console's suspend/restore, in the same batch), like every other feed row (0010_z): D1 counts trigger rows in
-- meta.changes, which conditional updates checked by affected rows must not see.
DROP TRIGGER IF EXISTS node_changes_user_status;
