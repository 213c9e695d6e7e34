// The console's customer tools: the extraction rate limit (effective on the next /extract call), a package granted with
// a reason (listed with the customer's packages, source 'operator'), sellers and their customers, the commission
// ledger of a promoter. Every write is one batch with its audit row (docs/decisions/123).
import { IP_DURATIONS } from '../../lib/catalogue-rules';
import { packageName } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { maskPhone } from '../../lib/format';
import { commissionSummary, listCommission } from '../db/commission';
import type { AuditActor } from '../db/operators-audit';
import { resolveCustomers } from '../db/operators-campaigns';
import {
  assignSellerStatement,
  findRateLimit,
  findSeller,
  findSellerOfUser,
  grantFeedStatement,
  grantPackageStatement,
  insertSellerStatement,
  listSellers,
  sellerCodeTaken,
  sellerCustomers,
  setRateLimitStatement,
  updateSellerStatement,
} from '../db/operators-customer-tools';
import { findUserById } from '../db/users';
import { ensureCredentials } from './credentials';
import { auditedWrite } from './operators-audit';
import { parseCustomerRefs } from './operators-campaigns';

export const RATE_LIMIT_MAX = 200;

/** Set a customer's extraction calls per second (their API credentials are created if they had none yet). */
export async function setCustomerRateLimit(
  db: D1Database,
  actor: AuditActor,
  r: { userId: number; rateLimit: number; reason: string },
): Promise<{ rateLimit: number }> {
  if (!(await findUserById(db, r.userId))) throw new AppError('customerNotFound');
  await ensureCredentials(db, r.userId, actor.now);
  const before = await findRateLimit(db, r.userId);
  const { changed } = await auditedWrite(
    db,
    actor,
    {
      action: 'Admin.CustomerRateLimit',
      target: `user:${r.userId}`,
      before: { rateLimit: before },
      after: { rateLimit: r.rateLimit },
      reason: r.reason,
    },
    [setRateLimitStatement(db, { userId: r.userId, rateLimit: r.rateLimit, now: actor.now })],
    { requireChange: true },
  );
  if (!changed) throw new AppError('customerNotFound');
  return { rateLimit: r.rateLimit };
}

export const GRANT_LIMITS = { countMax: 10_000_000, dailyMax: 1_000_000, daysMax: 365 } as const;

/**
 * Give a customer an extractable package (短效 or 长效; 按量 count or 包天 daily volume) for some days. Dedicated IPs are
 * not granted here: they need an allocation, which only the order path makes.
 */
export async function grantPackage(
  db: D1Database,
  actor: AuditActor,
  r: {
    userId: number;
    productType: 10 | 40;
    billingMethod: 1 | 2;
    ipDurationMinutes: number;
    amount: number;
    days: number;
    reason: string;
  },
): Promise<{ packageId: number; name: string }> {
  if (!(IP_DURATIONS[r.productType] ?? []).includes(r.ipDurationMinutes))
    throw new AppError('catalogueDurationInvalid');
  const max = r.billingMethod === 1 ? GRANT_LIMITS.countMax : GRANT_LIMITS.dailyMax;
  if (r.amount < 1 || r.amount > max || r.days < 1 || r.days > GRANT_LIMITS.daysMax) {
    throw new AppError('grantPackageInvalid');
  }
  const totalCount = r.billingMethod === 1 ? r.amount : 0;
  const dailyLimit = r.billingMethod === 2 ? r.amount : 0;
  const name = `赠送 · ${packageName({ ...r, count: totalCount, dailyLimit, ipCount: 0 })}`;
  const grant = {
    userId: r.userId,
    productType: r.productType,
    billingMethod: r.billingMethod,
    name,
    ipDurationMinutes: r.ipDurationMinutes,
    totalCount,
    dailyLimit,
    days: r.days,
    sourceRef: `op:${actor.operatorId ?? 0}:${actor.now}`,
    now: actor.now,
  };
  const { changed, results } = await auditedWrite(
    db,
    actor,
    {
      action: 'Admin.GrantPackage',
      target: `user:${r.userId}`,
      after: { name, totalCount, dailyLimit, days: r.days },
      reason: r.reason,
    },
    [grantFeedStatement(db, r.userId, actor.now), grantPackageStatement(db, grant)],
    { requireChange: true },
  );
  if (!changed) throw new AppError('customerNotFound');
  return { packageId: Number(results[1]?.meta.last_row_id ?? 0), name };
}

/** Sellers with their customer counts and paid amounts. */
export const sellersForAdmin = (db: D1Database) => listSellers(db);

export async function sellerDetail(db: D1Database, id: number) {
  const seller = await findSeller(db, id);
  if (!seller) throw new AppError('sellerNotFound');
  const customers = await sellerCustomers(db, id, 100);
  return {
    seller: { ...seller, enabled: seller.enabled === 1 },
    customers: customers.map((c) => ({ ...c, phone: maskPhone(c.phone) })),
  };
}

export async function saveSeller(
  db: D1Database,
  actor: AuditActor,
  r: {
    id?: number | undefined;
    code: string;
    name: string;
    phone: string;
    enabled: boolean;
    reason?: string | undefined;
  },
): Promise<{ id: number }> {
  if (await sellerCodeTaken(db, r.code, r.id ?? 0)) throw new AppError('sellerCodeTaken');
  const fields = { code: r.code, name: r.name, phone: r.phone, enabled: r.enabled };
  if (r.id === undefined) {
    const { results } = await auditedWrite(
      db,
      actor,
      { action: 'Admin.SellerSave', target: 'seller:new', after: fields, reason: r.reason ?? '' },
      [insertSellerStatement(db, fields)],
    );
    return { id: Number(results[0]?.meta.last_row_id ?? 0) };
  }
  const before = await findSeller(db, r.id);
  if (!before) throw new AppError('sellerNotFound');
  await auditedWrite(
    db,
    actor,
    { action: 'Admin.SellerSave', target: `seller:${r.id}`, before, after: fields, reason: r.reason ?? '' },
    [updateSellerStatement(db, r.id, fields)],
    { requireChange: true },
  );
  return { id: r.id };
}

/** Assign customers (phones or ids) to an enabled seller, or to none (sellerId 0). */
export async function assignCustomersToSeller(
  db: D1Database,
  actor: AuditActor,
  r: { sellerId: number; targets: string; reason: string },
): Promise<{ assigned: number; unknown: string[] }> {
  const refs = parseCustomerRefs(r.targets);
  if (!refs) throw new AppError('couponIssueTargetsInvalid');
  if (r.sellerId !== 0) {
    const seller = await findSeller(db, r.sellerId);
    if (seller?.enabled !== 1) throw new AppError('sellerNotFound');
  }
  const users = await resolveCustomers(db, refs);
  const found = new Set(users.flatMap((u) => [u.phone, String(u.id)]));
  const unknown = [...refs.phones, ...refs.ids.map(String)].filter((x) => !found.has(x));
  if (users.length === 0) throw new AppError('customerNotFound', { detail: unknown.slice(0, 5).join('、') });
  const { changed } = await auditedWrite(
    db,
    actor,
    {
      action: 'Admin.SellerAssign',
      target: r.sellerId ? `seller:${r.sellerId}` : 'seller:none',
      after: { userIds: users.map((u) => u.id) },
      reason: r.reason,
    },
    [
      assignSellerStatement(
        db,
        r.sellerId || null,
        users.map((u) => u.id),
        actor.now,
      ),
    ],
    { requireChange: true },
  );
  if (!changed) throw new AppError('sellerNotFound');
  return { assigned: changed, unknown };
}

/**
 * What the customer screen's tools show: the extraction rate limit (null before the API was opened; 10 is then the
 * default), the assigned seller, and the customer's commission balances and ledger page as a promoter.
 */
export async function customerTools(db: D1Database, userId: number, page: number) {
  const [rateLimit, seller, summary, ledger] = await Promise.all([
    findRateLimit(db, userId),
    findSellerOfUser(db, userId),
    commissionSummary(db, userId),
    listCommission(db, userId, page, 20),
  ]);
  return {
    rateLimit,
    seller,
    commission: {
      summary,
      total: ledger.total,
      list: ledger.list.map((e) => ({ ...e, inviteePhone: maskPhone(e.inviteePhone) })),
    },
  };
}
