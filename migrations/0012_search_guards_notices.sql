-- Issue 13 (backend): help search on FTS5, sanitised HTML stored at write time, password guesses on unknown phones,
-- single-winner review decisions and personal notices. Times are epoch milliseconds.

-- Help search (docs/decisions/091). body_text: the plain text of the sanitised body, written together with body_html
-- (rows written before this migration hold their HTML until rewritten; the seed rewrites every seeded row).
ALTER TABLE articles ADD COLUMN body_text TEXT NOT NULL DEFAULT '';
UPDATE articles SET body_text = body_html;

-- The trigram index finds any substring of 3+ characters (Chinese included); rowid = articles.id. Every article is
-- indexed; searches join back to articles for state and kind. The triggers keep it in step with every write.
CREATE VIRTUAL TABLE articles_fts USING fts5(title, summary, keywords, body, tokenize = 'trigram');
INSERT INTO articles_fts (rowid, title, summary, keywords, body) SELECT id, title, summary, keywords, body_text FROM articles;

CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
  INSERT INTO articles_fts (rowid, title, summary, keywords, body)
  VALUES (new.id, new.title, new.summary, new.keywords, new.body_text);
END;

CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles BEGIN
  DELETE FROM articles_fts WHERE rowid = old.id;
END;

CREATE TRIGGER articles_fts_update AFTER UPDATE OF id, title, summary, keywords, body_text ON articles BEGIN
  DELETE FROM articles_fts WHERE rowid = old.id;
  INSERT INTO articles_fts (rowid, title, summary, keywords, body)
  VALUES (new.id, new.title, new.summary, new.keywords, new.body_text);
END;

-- Password guesses against phones without a password-holding account count and lock exactly like an account's
-- (users.failed_logins / locked_until), so the answers cannot tell registered phones from others (docs/decisions/093).
CREATE TABLE login_phone_failures (
  phone TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  locked_until INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
CREATE INDEX login_phone_failures_time ON login_phone_failures(updated_at);

-- Review decisions carry a random id: only the request whose conditional update wrote its id writes the audit event
-- (docs/decisions/094).
ALTER TABLE withdrawals ADD COLUMN decision_id TEXT;
ALTER TABLE company_auths ADD COLUMN decision_id TEXT;

-- Personal notices: user_id NULL = a notice for everyone (the home notice), else only that user sees it
-- (e.g. a fixed IP replaced automatically, docs/decisions/095).
ALTER TABLE home_notices ADD COLUMN user_id INTEGER REFERENCES users(id);
CREATE INDEX home_notices_user ON home_notices(user_id, starts_at DESC);
