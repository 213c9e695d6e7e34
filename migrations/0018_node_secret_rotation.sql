-- Node signing secrets at rest and rotation with a grace window (docs/decisions/162).
-- proxy_nodes.secret now holds the secret sealed with NODE_SECRET_KEY (AES-256-GCM, 'gcm1:' prefix). SQL has no key, so
-- this migration cannot seal existing rows: rows still in plaintext (created before this migration, or written by the
-- development seed) keep working and are sealed by the Worker, on the node's next accepted call and by the 5-minute
-- job 'node-secrets-seal', whichever comes first.
-- previous_secret: the secret a rotation replaced (sealed), accepted until previous_until (epoch ms); '' and 0 when
-- there is none (a node created, rotated with immediate effect, or past its window, or already using the new secret).
ALTER TABLE proxy_nodes ADD COLUMN previous_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE proxy_nodes ADD COLUMN previous_until INTEGER NOT NULL DEFAULT 0;
