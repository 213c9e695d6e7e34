-- Console customer search by the last four digits of a phone (issue 24), and partial refunds with the coupon of a
-- refunded order (docs/decisions/205, 206). Forward-only.

-- 尾号 search: an expression index the query uses with the same expression (substr(phone, -4) = ?), so it never scans.
CREATE INDEX users_phone_tail ON users(substr(phone, -4));
