// Queries for the commission ledger and withdrawals. Accrual and reversal are returned as prepared statements so the
// commerce fulfilment can run them in its own payment transaction; every money move is a conditional statement.

import { INVITATION_VALID_DAYS } from '../../lib/commission-rules';
import { runBatch } from './batch';
import { type AuditWrite, auditInsertStatement } from './console-audit';
import { DAY_MS } from '../../lib/time';
import { COMMISSION_STATE, WITHDRAWAL_STATE } from '../../lib/commission-rules';
import { ORDER_STATE } from '../../lib/order-states';

const YEAR_MS = INVITATION_VALID_DAYS * DAY_MS;

/**
 * Statements that accrue the commission of one paid order (none when the order is not paid, the buyer was not
 * invited, the invitation is older than a year or the amount rounds to 0). UNIQUE(order_no) makes a repeated run a
 * no-op.
 */
export function accrualStatements(
  db: D1Database,
  o: {
    orderNo: string;
    userId: number;
    productType: number;
    payFen: number;
    paidAt: number;
    firstBp: number;
    recurringBp: number;
  },
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `WITH x AS (
           SELECT i.promoter_id, i.invitee_id,
             CASE WHEN EXISTS (SELECT 1 FROM commission_entries e WHERE e.invitee_id = i.invitee_id AND e.amount_fen > 0)
               THEN 0 ELSE 1 END AS is_first
           FROM invitations i WHERE i.invitee_id = ?1 AND i.promoter_id != i.invitee_id AND ?5 <= i.created_at + ${YEAR_MS}
         ), y AS (
           SELECT promoter_id, invitee_id, is_first, CAST(CASE is_first WHEN 1 THEN ?6 ELSE ?7 END AS INTEGER) AS bp FROM x
         )
         -- Bound numbers arrive as REAL: CAST keeps the division integral (floor for non-negative amounts).
         INSERT INTO commission_entries (promoter_id, invitee_id, order_no, product_type, base_fen, rate_bp, amount_fen,
           is_first, state, created_at)
         SELECT promoter_id, invitee_id, ?2, ?3, ?4, bp, (CAST(?4 AS INTEGER) * bp) / 10000, is_first, ${COMMISSION_STATE.available}, ?5 FROM y
         WHERE (CAST(?4 AS INTEGER) * bp) / 10000 > 0 AND EXISTS (SELECT 1 FROM orders WHERE order_no = ?2 AND user_id = ?1 AND state = ${ORDER_STATE.paid})
         ON CONFLICT(order_no) DO NOTHING`,
      )
      .bind(o.userId, o.orderNo, o.productType, o.payFen, o.paidAt, o.firstBp, o.recurringBp),
  ];
}

/**
 * Statements that reverse the commission of a refunded order: an available entry becomes reversed; an entry already
 * in a withdrawal gets a negative counter-entry ('R:' + order number, unique) taken off the next withdrawal.
 */
export function reversalStatements(
  db: D1Database,
  orderNo: string,
  now: number,
  /** When set, the statements act only while the order is refunded (state 4) by this refund (out_refund_no). */
  refundedBy?: string,
): D1PreparedStatement[] {
  const guard =
    refundedBy === undefined
      ? ''
      : `AND EXISTS (SELECT 1 FROM orders WHERE order_no = ?1 AND state = ${ORDER_STATE.refunded} AND out_refund_no = ?3)`;
  const bind = (s: D1PreparedStatement) =>
    refundedBy === undefined ? s.bind(orderNo, now) : s.bind(orderNo, now, refundedBy);
  return [
    bind(
      db.prepare(
        `INSERT INTO commission_entries (promoter_id, invitee_id, order_no, product_type, base_fen, rate_bp, amount_fen,
           is_first, state, created_at)
         SELECT promoter_id, invitee_id, 'R:' || order_no, product_type, base_fen, rate_bp, -amount_fen, 0, ${COMMISSION_STATE.available}, ?2
         FROM commission_entries WHERE order_no = ?1 AND state = ${COMMISSION_STATE.withdrawn} ${guard}
         ON CONFLICT(order_no) DO NOTHING`,
      ),
    ),
    bind(
      db.prepare(
        `UPDATE commission_entries SET state = ${COMMISSION_STATE.reversed}, reversed_at = ?2
         WHERE order_no = ?1 AND state = ${COMMISSION_STATE.available} AND NOT EXISTS (SELECT 1 FROM commission_entries WHERE order_no = 'R:' || ?1)
           ${guard}`,
      ),
    ),
  ];
}

export interface CommissionEntry {
  id: number;
  inviteePhone: string;
  orderNo: string;
  productType: number;
  baseFen: number;
  rateBp: number;
  amountFen: number;
  isFirst: boolean;
  state: number;
  withdrawalId: number | null;
  createdAt: number;
}

/** A page of the promoter's ledger, newest first. */
export async function listCommission(
  db: D1Database,
  promoterId: number,
  page: number,
  pageSize: number,
): Promise<{ list: CommissionEntry[]; total: number }> {
  const [rows, total] = await db.batch([
    db
      .prepare(
        `SELECT e.*, u.phone AS invitee_phone FROM commission_entries e JOIN users u ON u.id = e.invitee_id
         WHERE e.promoter_id = ? ORDER BY e.created_at DESC, e.id DESC LIMIT ? + 0 OFFSET ?`,
      )
      .bind(promoterId, pageSize, (page - 1) * pageSize),
    db.prepare('SELECT count(*) AS n FROM commission_entries WHERE promoter_id = ?').bind(promoterId),
  ]);
  type Row = {
    id: number;
    invitee_phone: string;
    order_no: string;
    product_type: number;
    base_fen: number;
    rate_bp: number;
    amount_fen: number;
    is_first: number;
    state: number;
    withdrawal_id: number | null;
    created_at: number;
  };
  return {
    list: ((rows?.results ?? []) as Row[]).map((r) => ({
      id: r.id,
      inviteePhone: r.invitee_phone,
      orderNo: r.order_no,
      productType: r.product_type,
      baseFen: r.base_fen,
      rateBp: r.rate_bp,
      amountFen: r.amount_fen,
      isFirst: r.is_first === 1,
      state: r.state,
      withdrawalId: r.withdrawal_id,
      createdAt: r.created_at,
    })),
    total: ((total?.results ?? []) as { n: number }[])[0]?.n ?? 0,
  };
}

export interface CommissionSummary {
  availableFen: number;
  inWithdrawalFen: number;
  withdrawnFen: number;
  totalFen: number;
}

/** Balances of a promoter: available, locked in open withdrawals, paid out, and all-time accrued. */
export async function commissionSummary(db: D1Database, promoterId: number): Promise<CommissionSummary> {
  const row = await db
    .prepare(
      `SELECT
         COALESCE(SUM(CASE WHEN e.state = ${COMMISSION_STATE.available} THEN e.amount_fen END), 0) AS available,
         COALESCE(SUM(CASE WHEN e.state = ${COMMISSION_STATE.withdrawn} AND w.state IN (${WITHDRAWAL_STATE.requested}, ${WITHDRAWAL_STATE.approved}) THEN e.amount_fen END), 0) AS locked,
         COALESCE(SUM(CASE WHEN e.state = ${COMMISSION_STATE.withdrawn} AND w.state = ${WITHDRAWAL_STATE.paid} THEN e.amount_fen END), 0) AS withdrawn,
         COALESCE(SUM(CASE WHEN e.amount_fen > 0 AND e.state != ${COMMISSION_STATE.reversed} THEN e.amount_fen END), 0) AS total
       FROM commission_entries e LEFT JOIN withdrawals w ON w.id = e.withdrawal_id WHERE e.promoter_id = ?`,
    )
    .bind(promoterId)
    .first<{ available: number; locked: number; withdrawn: number; total: number }>();
  return {
    availableFen: row?.available ?? 0,
    inWithdrawalFen: row?.locked ?? 0,
    withdrawnFen: row?.withdrawn ?? 0,
    totalFen: row?.total ?? 0,
  };
}

/**
 * Request a withdrawal of everything available, atomically: the request is created only when the available sum
 * reaches the minimum and the user has no open request (partial unique index), and exactly the summed entries are
 * locked to it in the same transaction. Returns the new request, or null when nothing was created.
 */
export async function requestWithdrawal(
  db: D1Database,
  w: { userId: number; accountName: string; accountNo: string; minFen: number; now: number },
): Promise<{ id: number; amountFen: number } | null> {
  const ref = crypto.randomUUID();
  const insert = db
    .prepare(
      `INSERT INTO withdrawals (ref, user_id, amount_fen, account_name, account_no, state, created_at, updated_at)
       SELECT ?1, ?2, s, ?3, ?4, ${WITHDRAWAL_STATE.requested}, ?5, ?5
       FROM (SELECT COALESCE(SUM(amount_fen), 0) AS s FROM commission_entries WHERE promoter_id = ?2 AND state = ${COMMISSION_STATE.available})
       WHERE s >= ?6
       ON CONFLICT DO NOTHING`,
    )
    .bind(ref, w.userId, w.accountName, w.accountNo, w.now, w.minFen);
  const created = db.prepare('SELECT id, amount_fen FROM withdrawals WHERE ref = ?').bind(ref);
  const batch = await runBatch(db, [
    insert,
    db
      .prepare(
        `UPDATE commission_entries SET state = ${COMMISSION_STATE.withdrawn}, withdrawal_id = (SELECT id FROM withdrawals WHERE ref = ?1)
         WHERE promoter_id = ?2 AND state = ${COMMISSION_STATE.available} AND EXISTS (SELECT 1 FROM withdrawals WHERE ref = ?1)`,
      )
      .bind(ref, w.userId),
    db
      .prepare(
        `INSERT INTO withdrawal_events (withdrawal_id, from_state, to_state, actor_id, note, created_at)
         SELECT id, 0, 1, user_id, '用户申请提现', ?2 FROM withdrawals WHERE ref = ?1`,
      )
      .bind(ref, w.now),
    created,
  ]);
  if (batch.changes(insert) !== 1) return null;
  const row = ((batch.of(created)?.results ?? []) as { id: number; amount_fen: number }[])[0];
  return row ? { id: row.id, amountFen: row.amount_fen } : null;
}

export interface WithdrawalRecord {
  id: number;
  userId: number;
  amountFen: number;
  accountName: string;
  accountNo: string;
  state: number;
  createdAt: number;
  updatedAt: number;
}

type WithdrawalRow = {
  id: number;
  user_id: number;
  amount_fen: number;
  account_name: string;
  account_no: string;
  state: number;
  created_at: number;
  updated_at: number;
};

const mapWithdrawal = (r: WithdrawalRow): WithdrawalRecord => ({
  id: r.id,
  userId: r.user_id,
  amountFen: r.amount_fen,
  accountName: r.account_name,
  accountNo: r.account_no,
  state: r.state,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A withdrawal by id. */
export async function findWithdrawal(db: D1Database, id: number): Promise<WithdrawalRecord | null> {
  const row = await db.prepare('SELECT * FROM withdrawals WHERE id = ?').bind(id).first<WithdrawalRow>();
  return row ? mapWithdrawal(row) : null;
}

/** The user's withdrawals (or every one in a state for operators), newest first. */
export async function listWithdrawals(
  db: D1Database,
  filter: { userId?: number; state?: number },
  limit: number,
): Promise<WithdrawalRecord[]> {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (filter.userId !== undefined) {
    where.push('user_id = ?');
    binds.push(filter.userId);
  }
  if (filter.state !== undefined) {
    where.push('state = ?');
    binds.push(filter.state);
  }
  const { results } = await db
    .prepare(
      `SELECT * FROM withdrawals ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC LIMIT ? + 0`,
    )
    .bind(...binds, limit)
    .all<WithdrawalRow>();
  return results.map(mapWithdrawal);
}

/**
 * Move a withdrawal from one state to another with its audit event; on rejection the locked entries return to
 * available. All or nothing, and only if it is still in `from`. The move stamps a random decision id: the event and the
 * entries' release follow only the row carrying this call's id, so of concurrent identical decisions exactly one moves
 * the withdrawal and writes exactly one event, even within the same millisecond (docs/decisions/094).
 */
export async function transitionWithdrawal(
  db: D1Database,
  t: { id: number; from: number; to: number; actorId: number; note: string; now: number },
  audit?: AuditWrite,
): Promise<boolean> {
  const decision = crypto.randomUUID();
  const stmts = [
    db
      .prepare('UPDATE withdrawals SET state = ?, updated_at = ?, decision_id = ? WHERE id = ? AND state = ?')
      .bind(t.to, t.now, decision, t.id, t.from),
    db
      .prepare(
        `INSERT INTO withdrawal_events (withdrawal_id, from_state, to_state, actor_id, note, created_at)
         SELECT id, ?2, ?3, ?4, ?5, ?6 FROM withdrawals WHERE id = ?1 AND state = ?3 AND decision_id = ?7`,
      )
      .bind(t.id, t.from, t.to, t.actorId, t.note, t.now, decision),
  ];
  if (t.to === 4) {
    stmts.push(
      db
        .prepare(
          `UPDATE commission_entries SET state = ${COMMISSION_STATE.available}, withdrawal_id = NULL WHERE withdrawal_id = ?1 AND state = ${COMMISSION_STATE.withdrawn}
           AND EXISTS (SELECT 1 FROM withdrawals WHERE id = ?1 AND state = ${WITHDRAWAL_STATE.rejected} AND decision_id = ?2)`,
        )
        .bind(t.id, decision),
    );
  }
  if (audit) {
    stmts.push(
      auditInsertStatement(db, audit.actor, audit.entry, {
        sql: 'EXISTS (SELECT 1 FROM withdrawals WHERE id = ? AND state = ? AND decision_id = ?)',
        binds: [t.id, t.to, decision],
      }),
    );
  }
  const [upd] = await db.batch(stmts);
  return upd?.meta.changes === 1;
}

/** The audit trail of a withdrawal. */
export async function listWithdrawalEvents(
  db: D1Database,
  withdrawalId: number,
): Promise<{ fromState: number; toState: number; actorId: number; note: string; createdAt: number }[]> {
  const { results } = await db
    .prepare('SELECT * FROM withdrawal_events WHERE withdrawal_id = ? ORDER BY id')
    .bind(withdrawalId)
    .all<{ from_state: number; to_state: number; actor_id: number; note: string; created_at: number }>();
  return results.map((r) => ({
    fromState: r.from_state,
    toState: r.to_state,
    actorId: r.actor_id,
    note: r.note,
    createdAt: r.created_at,
  }));
}

/** True when the user has a requested or approved withdrawal. */
export async function hasOpenWithdrawal(db: D1Database, userId: number): Promise<boolean> {
  return (
    (await db
      .prepare(
        `SELECT 1 AS x FROM withdrawals WHERE user_id = ? AND state IN (${WITHDRAWAL_STATE.requested}, ${WITHDRAWAL_STATE.approved})`,
      )
      .bind(userId)
      .first()) !== null
  );
}
