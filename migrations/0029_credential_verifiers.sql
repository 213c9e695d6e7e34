-- Customers' API secrets as verifiers (docs/decisions/199, 200). SQL has no HMAC and no key, so existing rows cannot be
-- converted here: proxy_api_credentials.api_key now holds 'h1:' + HMAC-SHA256 of the extraction key and proxy_password
-- the password sealed ('gcm1:' + AES-256-GCM), both under NODE_SECRET_KEY; a row without the prefix is a plain value
-- from before this migration, converted by the 5-minute job `credentials-seal` (and an extraction key also by its
-- first use). The unique index on api_key serves the lookup by hash.

-- What nodes check a proxy password against: 'hs1$' + salt (32 hex) + '$' + HMAC-SHA256(salt, username ':' password)
-- (64 hex); '' while the password is still plain (the contract then computes one).
ALTER TABLE proxy_api_credentials ADD COLUMN proxy_password_verifier TEXT NOT NULL DEFAULT '';

-- The rows the job still has to convert (an empty index once every row is converted).
CREATE INDEX proxy_api_credentials_plain ON proxy_api_credentials(user_id)
  WHERE substr(api_key, 1, 3) != 'h1:' OR substr(proxy_password, 1, 5) != 'gcm1:';
