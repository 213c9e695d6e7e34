-- One index per IP instead of three random-keyed ones (docs/decisions/184). Every charged extraction writes 10
-- ip_assignments rows, and each index keyed by IP takes its 10 entries on up to 10 different pages: on D1 those page
-- writes were most of the batch's time. (ip_id, expires_at, user_id) answers every read the three did:
--   dedup=1  ip_id = candidate AND expires_at > the Shanghai day's start AND user_id = caller (then day = today),
--   dedup=2  ip_id = candidate AND expires_at > now AND user_id = caller,
--   leases of an exit at an instant (node refusal reports), live leases per node (console): ip_id = ? AND expires_at > ?.
CREATE INDEX ip_assignments_ip_live ON ip_assignments(ip_id, expires_at, user_id);
DROP INDEX ip_assignments_ip_expiry;
DROP INDEX ip_assignments_user_ip;
DROP INDEX ip_assignments_user_day;
