-- The IP records show each extracted IP's traffic: node usage rows found by (user, exit) and time, not by a scan of
-- the user's whole usage history.
CREATE INDEX node_usage_user_exit_time ON node_usage(user_id, ip, port, period_start);
