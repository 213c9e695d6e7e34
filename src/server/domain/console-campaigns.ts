// The console's campaigns: coupon rules (the same kinds, threshold and scope the pricing engine applies), issuing them
// to customers by phone or id within stock, and red-packet launches with their budget. Every write carries its audit
// row in the same batch; stock and budget are taken only by conditional statements (docs/decisions/122).
import { IP_DURATIONS } from '../../lib/catalogue-rules';
import { AppError } from '../../lib/errors';
import type { AuditActor } from '../db/console-audit';
import {
  type CouponFields,
  findCouponForAdmin,
  findLaunchForAdmin,
  insertCouponStatement,
  insertLaunchStatement,
  issueCouponStatement,
  type LaunchFields,
  listCouponsForAdmin,
  listLaunchesForAdmin,
  resolveCustomers,
  setCouponStateStatement,
  setLaunchEnabledStatement,
  syncCouponIssuedStatement,
  updateCouponStatement,
  updateLaunchStatement,
} from '../db/console-campaigns';
import { auditedChange, auditedSave } from './console-audit';
import { otherOnOff } from '../../lib/on-off-states';

/** Percent-off coupons take 1-90 % (never free); amount-off coupons must leave something to pay above the threshold. */
export function checkCoupon(c: CouponFields): void {
  if (c.kind === 2 && (c.value < 1 || c.value > 90)) throw new AppError('couponValueInvalid');
  if (c.kind === 1 && c.thresholdFen > 0 && c.value >= c.thresholdFen) throw new AppError('couponValueInvalid');
  if (c.endsAt <= c.startsAt) throw new AppError('catalogueWindowInvalid');
}

export async function campaignsForAdmin(db: D1Database) {
  const [coupons, launches] = await Promise.all([listCouponsForAdmin(db), listLaunchesForAdmin(db)]);
  return { coupons, launches };
}

export async function saveCoupon(
  db: D1Database,
  actor: AuditActor,
  r: CouponFields & { id?: number | undefined; reason?: string | undefined },
): Promise<{ id: number }> {
  const { id, reason, ...fields } = r;
  fields.productTypes = [...new Set(fields.productTypes)].sort();
  checkCoupon(fields);
  return auditedSave(db, actor, {
    action: 'Admin.CouponSave',
    kind: 'coupon',
    id,
    reason,
    after: fields,
    find: (i) => findCouponForAdmin(db, i),
    insert: () => insertCouponStatement(db, fields),
    update: (i) => updateCouponStatement(db, i, fields),
    notFound: 'couponNotFound',
    unchanged: 'couponStockBelowIssued',
  });
}

export async function setCouponState(
  db: D1Database,
  actor: AuditActor,
  r: { id: number; state: 1 | 2; reason: string },
): Promise<{ state: 1 | 2 }> {
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.CouponSetState',
      target: `coupon:${r.id}`,
      before: { state: otherOnOff(r.state) },
      after: { state: r.state },
      reason: r.reason,
    },
    [setCouponStateStatement(db, r.id, r.state)],
    'catalogueStateChanged',
  );
  return { state: r.state };
}

export const MAX_ISSUE_TARGETS = 200;

/** Phone numbers (11 digits from 1) and user ids from a pasted list (lines, commas, spaces). */
export function parseCustomerRefs(text: string): { phones: string[]; ids: number[] } | null {
  const parts = text
    .split(/[\s,，;；、]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.length > MAX_ISSUE_TARGETS) return null;
  const phones: string[] = [];
  const ids: number[] = [];
  for (const p of parts) {
    if (/^1\d{10}$/.test(p)) phones.push(p);
    else if (/^[1-9]\d{0,9}$/.test(p)) ids.push(Number(p));
    else return null;
  }
  return { phones, ids };
}

/**
 * Issue one coupon to each listed customer who exists, in one batch with its audit row: each grant is conditional on
 * the rule being enabled, unexpired, in stock and under the per-user limit, so the batch never oversells whatever runs
 * at the same time. Returns who got one and who did not.
 */
export async function issueCoupon(
  db: D1Database,
  actor: AuditActor,
  r: { couponId: number; targets: string; reason: string },
): Promise<{ issued: number; skipped: string[] }> {
  const refs = parseCustomerRefs(r.targets);
  if (!refs) throw new AppError('couponIssueTargetsInvalid');
  const coupon = await findCouponForAdmin(db, r.couponId);
  if (!coupon) throw new AppError('couponNotFound');
  const users = await resolveCustomers(db, refs);
  const found = new Set(users.flatMap((u) => [u.phone, String(u.id)]));
  const unknown = [...refs.phones, ...refs.ids.map(String)].filter((x) => !found.has(x));
  if (users.length === 0) throw new AppError('customerNotFound', { detail: unknown.slice(0, 5).join('、') });
  const inserts = users.map((u) => issueCouponStatement(db, { couponId: r.couponId, userId: u.id, now: actor.now }));
  const { results } = await auditedChange(
    db,
    actor,
    {
      action: 'Admin.CouponIssue',
      target: `coupon:${r.couponId}`,
      after: { userIds: users.map((u) => u.id) },
      reason: r.reason,
    },
    [...inserts, syncCouponIssuedStatement(db, r.couponId)],
    'couponIssueNone',
  );
  const skipped = users.filter((_, i) => (results[i]?.meta.changes ?? 0) === 0).map((u) => u.phone);
  return { issued: users.length - skipped.length, skipped: [...skipped, ...unknown] };
}

/** A red packet is an extractable package: its duration comes from the type's set. */
export function checkLaunch(l: LaunchFields): void {
  if (!(IP_DURATIONS[l.productType] ?? []).includes(l.ipDurationMinutes) || l.ipDurationMinutes === 0) {
    throw new AppError('redLaunchDurationInvalid');
  }
  if (l.endsAt <= l.startsAt) throw new AppError('catalogueWindowInvalid');
}

export async function saveLaunch(
  db: D1Database,
  actor: AuditActor,
  r: LaunchFields & { id?: number | undefined; reason?: string | undefined },
): Promise<{ id: number }> {
  const { id, reason, ...fields } = r;
  checkLaunch(fields);
  return auditedSave(db, actor, {
    action: 'Admin.RedLaunchSave',
    kind: 'red_launch',
    id,
    reason,
    after: fields,
    find: (i) => findLaunchForAdmin(db, i),
    insert: () => insertLaunchStatement(db, fields),
    update: (i) => updateLaunchStatement(db, i, fields),
    notFound: 'redLaunchNotFound',
    unchanged: async (i) => {
      // Say which condition held it back (nothing was written).
      const now = await findLaunchForAdmin(db, i);
      return now && now.received > fields.budget ? 'redLaunchBudgetBelowReceived' : 'redLaunchTermsLocked';
    },
  });
}

export async function setLaunchEnabled(
  db: D1Database,
  actor: AuditActor,
  r: { id: number; enabled: boolean; reason: string },
): Promise<{ enabled: boolean }> {
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.RedLaunchSetEnabled',
      target: `red_launch:${r.id}`,
      before: { enabled: !r.enabled },
      after: { enabled: r.enabled },
      reason: r.reason,
    },
    [setLaunchEnabledStatement(db, r.id, r.enabled)],
    'catalogueStateChanged',
  );
  return { enabled: r.enabled };
}
