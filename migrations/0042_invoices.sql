-- Invoices (发票; issue 25 item 4, docs/decisions/229-230). Forward-only.

-- The invoice titles (发票抬头) a customer keeps. kind: personal (个人: a name only) or company (企业: the name and the
-- 18-character unified social credit code as 税号; address, phone, bank and account are needed for a 专票 only).
-- A deleted title keeps its row (deleted_at): requests copy what they need, so nothing points at it.
CREATE TABLE invoice_titles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('personal', 'company')),
  name TEXT NOT NULL,
  tax_no TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  bank TEXT NOT NULL DEFAULT '',
  account TEXT NOT NULL DEFAULT '',
  deleted_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX invoice_titles_user ON invoice_titles(user_id, deleted_at);

-- Invoice requests. type: normal (增值税普通发票) or special (增值税专用发票). The title is copied in at request time, so
-- a later edit of the saved title never changes what finance reviews. state: pending (待开具) → issued (已开具: an
-- uploaded PDF in R2 under pdf_key and/or an electronic invoice number) or refused (已驳回, with refuse_reason).
-- pending and issued requests hold their amount against the customer's invoiceable total (decision 229); the INSERT
-- that creates a request checks that total itself, so concurrent requests can never exceed it.
CREATE TABLE invoice_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('normal', 'special')),
  amount_fen INTEGER NOT NULL CHECK (amount_fen > 0),
  title_kind TEXT NOT NULL CHECK (title_kind IN ('personal', 'company')),
  title_name TEXT NOT NULL,
  tax_no TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  bank TEXT NOT NULL DEFAULT '',
  account TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'issued', 'refused')),
  invoice_no TEXT NOT NULL DEFAULT '',
  pdf_key TEXT,
  pdf_bytes INTEGER,
  refuse_reason TEXT NOT NULL DEFAULT '',
  operator_id INTEGER,
  reviewed_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX invoice_requests_user ON invoice_requests(user_id, state);
CREATE INDEX invoice_requests_state ON invoice_requests(state, created_at);

-- The orders a request was made for (none when the customer entered an amount). An order is in at most one pending or
-- issued request: the request's INSERT checks it against these rows joined to their request's state.
CREATE TABLE invoice_request_orders (
  request_id INTEGER NOT NULL REFERENCES invoice_requests(id),
  order_no TEXT NOT NULL,
  amount_fen INTEGER NOT NULL CHECK (amount_fen > 0),
  PRIMARY KEY (request_id, order_no)
);
CREATE INDEX invoice_request_orders_order ON invoice_request_orders(order_no);
