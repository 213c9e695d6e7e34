// Queries for invoices (migrations/0042; docs/decisions/229-230): the customer's saved titles, the invoiceable amount,
// the request INSERT that checks that amount itself (so concurrent requests never exceed it), the reviews' UPDATEs
// and the console's list with its 红冲 flags.
import { ORDER_KIND } from '../../lib/commerce';
import { INVOICE_STATE, type InvoiceState, type InvoiceType, type TitleKind } from '../../lib/invoice-rules';
import { runBatch } from './batch';

/** Orders that count as consumption (decision 229: invoices follow consumption; any other kind, such as a balance
 * top-up, is never invoiceable by itself). */
const CONSUMPTION_KINDS = Object.values(ORDER_KIND).join(', ');
/** orders.state: 2 paid, 4 refunded (ORDER_STATE_LABEL). A refunded order was paid; its refunds are subtracted. */
const ORDER_PAID = 2;
const ORDER_REFUNDED = 4;
/** Requests that hold their amount: pending and issued. */
const HOLDING = `('${INVOICE_STATE.pending}', '${INVOICE_STATE.issued}')`;

/** A live refund of an order (refunds.kind 'order', not FAILED): pending refunds count, the safe side. */
const LIVE_REFUND = `r.kind = 'order' AND r.status != 'FAILED'`;

/** What the customer paid for consumption, less what was refunded of it (?1 = user id). */
const NET_PAID_SQL = `(
  (SELECT coalesce(sum(p.pay_fen), 0) FROM orders p
    WHERE p.user_id = ?1 AND p.state IN (${ORDER_PAID}, ${ORDER_REFUNDED}) AND p.kind IN (${CONSUMPTION_KINDS}))
  - (SELECT coalesce(sum(f.amount_fen), 0) FROM refunds f WHERE f.kind = 'order' AND f.status != 'FAILED' AND f.order_no IN
      (SELECT p.order_no FROM orders p WHERE p.user_id = ?1 AND p.kind IN (${CONSUMPTION_KINDS}))))`;
/** What the customer's pending and issued requests hold (?1 = user id). */
const HELD_SQL = `(SELECT coalesce(sum(h.amount_fen), 0) FROM invoice_requests h WHERE h.user_id = ?1 AND h.state IN ${HOLDING})`;

/** An order the customer may pick: paid, consumption, never refunded, in no pending or issued request. */
const PICKABLE_ORDER = `o.user_id = ?1 AND o.state = ${ORDER_PAID} AND o.kind IN (${CONSUMPTION_KINDS})
  AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.order_no = o.order_no AND ${LIVE_REFUND})
  AND NOT EXISTS (SELECT 1 FROM invoice_request_orders l JOIN invoice_requests q ON q.id = l.request_id
                  WHERE l.order_no = o.order_no AND q.state IN ${HOLDING})`;

export interface InvoiceTitleFields {
  kind: TitleKind;
  name: string;
  taxNo: string;
  address: string;
  phone: string;
  bank: string;
  account: string;
}

export interface InvoiceTitle extends InvoiceTitleFields {
  id: number;
  updatedAt: number;
}

interface TitleRow {
  id: number;
  kind: TitleKind;
  name: string;
  tax_no: string;
  address: string;
  phone: string;
  bank: string;
  account: string;
  updated_at: number;
}

const mapTitle = (r: TitleRow): InvoiceTitle => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  taxNo: r.tax_no,
  address: r.address,
  phone: r.phone,
  bank: r.bank,
  account: r.account,
  updatedAt: r.updated_at,
});

/** The customer's saved titles, newest first. */
export async function listTitles(db: D1Database, userId: number): Promise<InvoiceTitle[]> {
  const { results } = await db
    .prepare('SELECT * FROM invoice_titles WHERE user_id = ? AND deleted_at IS NULL ORDER BY id DESC LIMIT 50')
    .bind(userId)
    .all<TitleRow>();
  return results.map(mapTitle);
}

/** One of the customer's saved titles, or null. */
export async function findTitle(db: D1Database, userId: number, id: number): Promise<InvoiceTitle | null> {
  const row = await db
    .prepare('SELECT * FROM invoice_titles WHERE id = ? AND user_id = ? AND deleted_at IS NULL')
    .bind(id, userId)
    .first<TitleRow>();
  return row ? mapTitle(row) : null;
}

/** Save a new title while the customer holds fewer than `max`; answers its id, or null at the limit. */
export async function insertTitle(
  db: D1Database,
  userId: number,
  t: InvoiceTitleFields,
  now: number,
  max: number,
): Promise<number | null> {
  const row = await db
    .prepare(
      `INSERT INTO invoice_titles (user_id, kind, name, tax_no, address, phone, bank, account, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9
       WHERE (SELECT count(*) FROM invoice_titles WHERE user_id = ?1 AND deleted_at IS NULL) < ?10
       RETURNING id`,
    )
    .bind(userId, t.kind, t.name, t.taxNo, t.address, t.phone, t.bank, t.account, now, max)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Change one of the customer's titles; false when it is not theirs or was deleted. */
export async function updateTitle(
  db: D1Database,
  userId: number,
  id: number,
  t: InvoiceTitleFields,
  now: number,
): Promise<boolean> {
  const r = await db
    .prepare(
      `UPDATE invoice_titles SET kind = ?3, name = ?4, tax_no = ?5, address = ?6, phone = ?7, bank = ?8, account = ?9,
         updated_at = ?10
       WHERE id = ?1 AND user_id = ?2 AND deleted_at IS NULL`,
    )
    .bind(id, userId, t.kind, t.name, t.taxNo, t.address, t.phone, t.bank, t.account, now)
    .run();
  return r.meta.changes > 0;
}

/** Delete one of the customer's titles (requests keep their own copy); false when it is not theirs. */
export async function deleteTitle(db: D1Database, userId: number, id: number, now: number): Promise<boolean> {
  const r = await db
    .prepare('UPDATE invoice_titles SET deleted_at = ?3 WHERE id = ?1 AND user_id = ?2 AND deleted_at IS NULL')
    .bind(id, userId, now)
    .run();
  return r.meta.changes > 0;
}

export interface InvoiceableSummary {
  /** Paid for consumption less refunds. */
  netPaidFen: number;
  /** Held by pending and issued requests. */
  heldFen: number;
  /** What may still be requested (never below 0). */
  invoiceableFen: number;
}

/** The customer's invoiceable amount: paid − refunded − already requested (decision 229). */
export async function invoiceableSummary(db: D1Database, userId: number): Promise<InvoiceableSummary> {
  const row = await db
    .prepare(`SELECT ${NET_PAID_SQL} AS net, ${HELD_SQL} AS held`)
    .bind(userId)
    .first<{ net: number; held: number }>();
  const netPaidFen = row?.net ?? 0;
  const heldFen = row?.held ?? 0;
  return { netPaidFen, heldFen, invoiceableFen: Math.max(0, netPaidFen - heldFen) };
}

export interface PickableOrder {
  orderNo: string;
  title: string;
  payFen: number;
  paidAt: number;
}

/** The orders the customer may pick for a request, newest first. */
export async function pickableOrders(db: D1Database, userId: number): Promise<PickableOrder[]> {
  const { results } = await db
    .prepare(
      `SELECT o.order_no, o.title, o.pay_fen, o.paid_at FROM orders o WHERE ${PICKABLE_ORDER}
       ORDER BY o.paid_at DESC LIMIT 200`,
    )
    .bind(userId)
    .all<{ order_no: string; title: string; pay_fen: number; paid_at: number | null }>();
  return results.map((r) => ({ orderNo: r.order_no, title: r.title, payFen: r.pay_fen, paidAt: r.paid_at ?? 0 }));
}

export interface NewInvoiceRequest {
  userId: number;
  type: InvoiceType;
  amountFen: number;
  title: InvoiceTitleFields;
  email: string;
  now: number;
  /** The picked orders (their amounts must add up to amountFen), or null for an entered amount. */
  orderNos: string[] | null;
}

/**
 * Create a request in one batch. The INSERT itself checks that the amount fits in the invoiceable total and, for
 * picked orders, that every order is still pickable and that their amounts make the requested amount; the order
 * links are written only when the request was (changes() of the INSERT before them; inside the batch's transaction
 * the customer's newest request is the one just written). Answers the new id, or null when a check failed (nothing written).
 */
export async function insertInvoiceRequest(db: D1Database, r: NewInvoiceRequest): Promise<number | null> {
  const orders = JSON.stringify(r.orderNos ?? []);
  const orderCheck =
    r.orderNos === null
      ? ''
      : `AND (SELECT count(*) FROM orders o WHERE o.order_no IN (SELECT value FROM json_each(?14)) AND ${PICKABLE_ORDER})
             = json_array_length(?14)
         AND (SELECT coalesce(sum(o.pay_fen), 0) FROM orders o WHERE o.order_no IN (SELECT value FROM json_each(?14))
              AND o.user_id = ?1) = ?3`;
  const insert = db
    .prepare(
      `INSERT INTO invoice_requests (user_id, type, amount_fen, title_kind, title_name, tax_no, address, phone, bank,
         account, email, state, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13
       WHERE json_valid(?14) AND ${NET_PAID_SQL} - ${HELD_SQL} >= ?3 ${orderCheck}`,
    )
    .bind(
      r.userId,
      r.type,
      r.amountFen,
      r.title.kind,
      r.title.name,
      r.title.taxNo,
      r.title.address,
      r.title.phone,
      r.title.bank,
      r.title.account,
      r.email,
      INVOICE_STATE.pending,
      r.now,
      orders,
    );
  const links = db
    .prepare(
      `INSERT INTO invoice_request_orders (request_id, order_no, amount_fen)
       SELECT (SELECT max(q.id) FROM invoice_requests q WHERE q.user_id = ?1), o.order_no, o.pay_fen FROM orders o
       WHERE changes() > 0 AND o.user_id = ?1 AND o.order_no IN (SELECT value FROM json_each(?2))`,
    )
    .bind(r.userId, orders);
  const batch = await runBatch(db, r.orderNos === null ? [insert] : [insert, links]);
  if (batch.changes(insert) === 0) return null;
  return Number(batch.of(insert)?.meta.last_row_id ?? 0);
}

export interface InvoiceRequest {
  id: number;
  userId: number;
  type: InvoiceType;
  amountFen: number;
  title: InvoiceTitleFields;
  email: string;
  state: InvoiceState;
  invoiceNo: string;
  hasPdf: boolean;
  pdfBytes: number | null;
  refuseReason: string;
  reviewedAt: number | null;
  createdAt: number;
  /** The picked orders (empty for an entered amount). */
  orderNos: string[];
}

interface RequestRow {
  id: number;
  user_id: number;
  type: InvoiceType;
  amount_fen: number;
  title_kind: TitleKind;
  title_name: string;
  tax_no: string;
  address: string;
  phone: string;
  bank: string;
  account: string;
  email: string;
  state: InvoiceState;
  invoice_no: string;
  pdf_key: string | null;
  pdf_bytes: number | null;
  refuse_reason: string;
  reviewed_at: number | null;
  created_at: number;
  order_nos: string | null;
}

const REQUEST_SELECT = `SELECT q.*, (SELECT group_concat(l.order_no) FROM invoice_request_orders l
  WHERE l.request_id = q.id) AS order_nos FROM invoice_requests q`;

const mapRequest = (r: RequestRow): InvoiceRequest => ({
  id: r.id,
  userId: r.user_id,
  type: r.type,
  amountFen: r.amount_fen,
  title: {
    kind: r.title_kind,
    name: r.title_name,
    taxNo: r.tax_no,
    address: r.address,
    phone: r.phone,
    bank: r.bank,
    account: r.account,
  },
  email: r.email,
  state: r.state,
  invoiceNo: r.invoice_no,
  hasPdf: r.pdf_key !== null,
  pdfBytes: r.pdf_bytes,
  refuseReason: r.refuse_reason,
  reviewedAt: r.reviewed_at,
  createdAt: r.created_at,
  orderNos: r.order_nos ? r.order_nos.split(',') : [],
});

/** The customer's requests, newest first. */
export async function listUserRequests(db: D1Database, userId: number): Promise<InvoiceRequest[]> {
  const { results } = await db
    .prepare(`${REQUEST_SELECT} WHERE q.user_id = ? ORDER BY q.id DESC LIMIT 100`)
    .bind(userId)
    .all<RequestRow>();
  return results.map(mapRequest);
}

/** One request by id (any customer's: callers check ownership), with its PDF's R2 key. */
export async function findInvoiceRequest(
  db: D1Database,
  id: number,
): Promise<(InvoiceRequest & { pdfKey: string | null }) | null> {
  const row = await db.prepare(`${REQUEST_SELECT} WHERE q.id = ?`).bind(id).first<RequestRow>();
  return row ? { ...mapRequest(row), pdfKey: row.pdf_key } : null;
}

/** Issue a pending request (a PDF in R2 and/or an electronic invoice number); the statement changes nothing when the
 * request is no longer pending. */
export function issueStatement(
  db: D1Database,
  id: number,
  a: { invoiceNo: string; pdfKey: string | null; pdfBytes: number | null; operatorId: number | null; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE invoice_requests SET state = ?2, invoice_no = ?3, pdf_key = ?4, pdf_bytes = ?5, operator_id = ?6,
         reviewed_at = ?7
       WHERE id = ?1 AND state = ?8`,
    )
    .bind(id, INVOICE_STATE.issued, a.invoiceNo, a.pdfKey, a.pdfBytes, a.operatorId, a.now, INVOICE_STATE.pending);
}

/** Refuse a pending request with a reason (its amount goes back to the invoiceable total). */
export function refuseStatement(
  db: D1Database,
  id: number,
  a: { reason: string; operatorId: number | null; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE invoice_requests SET state = ?2, refuse_reason = ?3, operator_id = ?4, reviewed_at = ?5
       WHERE id = ?1 AND state = ?6`,
    )
    .bind(id, INVOICE_STATE.refused, a.reason, a.operatorId, a.now, INVOICE_STATE.pending);
}

export interface ConsoleInvoiceRow extends InvoiceRequest {
  phone: string;
  /** Orders of this request refunded since (live refunds), in fen: a 红冲 is due. */
  refundedOrdersFen: number;
  /** How far the customer's pending and issued requests exceed what they paid net (0 when they do not). */
  customerOverFen: number;
}

/** The console's list: requests by state (all when null), newest first; `flagged` keeps only those needing 红冲. */
export async function listConsoleRequests(
  db: D1Database,
  f: { state: InvoiceState | null; flagged: boolean; limit: number },
): Promise<ConsoleInvoiceRow[]> {
  // Per row: refunds of its own orders, and the customer's over-invoiced amount (net paid below what is held).
  const sql = `SELECT * FROM (
      SELECT q.*, u.phone AS customer_phone,
        (SELECT group_concat(l.order_no) FROM invoice_request_orders l WHERE l.request_id = q.id) AS order_nos,
        (SELECT coalesce(sum(r.amount_fen), 0) FROM invoice_request_orders l JOIN refunds r ON r.order_no = l.order_no
          WHERE l.request_id = q.id AND ${LIVE_REFUND}) AS refunded_orders_fen,
        max(0, ${HELD_SQL.replaceAll('?1', 'q.user_id')} - ${NET_PAID_SQL.replaceAll('?1', 'q.user_id')})
          AS customer_over_fen
      FROM invoice_requests q JOIN users u ON u.id = q.user_id
      WHERE ?1 IS NULL OR q.state = ?1)
    WHERE ?3 = 0 OR (state = '${INVOICE_STATE.issued}' AND (refunded_orders_fen > 0 OR customer_over_fen > 0))
    ORDER BY id DESC LIMIT ?2 + 0`;
  const { results } = await db
    .prepare(sql)
    .bind(f.state, f.limit, f.flagged ? 1 : 0)
    .all<RequestRow & { customer_phone: string; refunded_orders_fen: number; customer_over_fen: number }>();
  return results.map((r) => ({
    ...mapRequest(r),
    phone: r.customer_phone,
    refundedOrdersFen: r.refunded_orders_fen,
    customerOverFen: r.customer_over_fen,
  }));
}

/** The red-flush facts of one request (the console's detail): refunds of its orders and the customer's over amount. */
export async function redFlushFacts(
  db: D1Database,
  id: number,
  userId: number,
): Promise<{ refundedOrdersFen: number; customerOverFen: number }> {
  const row = await db
    .prepare(
      `SELECT (SELECT coalesce(sum(r.amount_fen), 0) FROM invoice_request_orders l JOIN refunds r
                 ON r.order_no = l.order_no WHERE l.request_id = ?2 AND ${LIVE_REFUND}) AS refunded,
              max(0, ${HELD_SQL} - ${NET_PAID_SQL}) AS over`,
    )
    .bind(userId, id)
    .first<{ refunded: number; over: number }>();
  return { refundedOrdersFen: row?.refunded ?? 0, customerOverFen: row?.over ?? 0 };
}

/** What the customer's orders of these numbers cost together (others' orders count nothing). */
export async function sumOfOrders(db: D1Database, userId: number, orderNos: string[]): Promise<number> {
  const row = await db
    .prepare(
      'SELECT coalesce(sum(pay_fen), 0) AS n FROM orders WHERE user_id = ?1 AND order_no IN (SELECT value FROM json_each(?2))',
    )
    .bind(userId, JSON.stringify(orderNos))
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The name of the customer's company application in `approvedState` (企业认证 passed), or null. */
export async function certifiedCompanyName(
  db: D1Database,
  userId: number,
  approvedState: number,
): Promise<string | null> {
  const row = await db
    .prepare('SELECT company_name FROM company_auths WHERE user_id = ? AND state = ? ORDER BY id DESC LIMIT 1')
    .bind(userId, approvedState)
    .first<{ company_name: string }>();
  return row?.company_name ?? null;
}
