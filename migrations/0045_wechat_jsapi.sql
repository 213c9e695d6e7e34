-- JSAPI payment inside WeChat's browser (docs/decisions/237): the payer's openid under the official account's appid,
-- learned once through the account's web authorisation (snsapi_base) and kept for the next payment.
CREATE TABLE wechat_openids (
  user_id INTEGER NOT NULL REFERENCES users(id),
  appid TEXT NOT NULL,
  openid TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, appid)
);
-- Development only: the web-authorisation stand-in's one-time codes (each works once, for 5 minutes, like WeChat's).
CREATE TABLE wechat_oauth_simulator_codes (
  code TEXT PRIMARY KEY,
  openid TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  used_at INTEGER
);
-- A JSAPI attempt is a phone's own payment (mode 'wap') opened for one payer: WeChat ties its prepay_id to that openid,
-- so a live attempt is reused only for the same payer (NULL: WeChat H5 outside WeChat's browser).
ALTER TABLE payments ADD COLUMN payer_openid TEXT;
