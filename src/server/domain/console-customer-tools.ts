// The console's customer tools: the extraction rate limit (effective on the next /extract call), a package granted with
// a reason (listed with the customer's packages, source 'operator'), sellers and their customers, the commission
// ledger of a promoter. Every write is one batch with its audit row (docs/decisions/123).
import { IP_DURATIONS } from '../../lib/catalogue-rules';
import { packageName } from '../../lib/commerce';
import { AppError } from '../../lib/errors';
import { maskPhone } from '../../lib/format';
import { DAY_MS } from '../../lib/time';
import { commissionSummary, listCommission } from '../db/commission';
import {
  allocateDedicatedStatements,
  countFreeDedicated,
  type DedicatedSource,
  dedicatedRegionStock,
} from '../db/fixed';
import type { AuditActor } from '../db/console-audit';
import { resolveCustomers } from '../db/console-campaigns';
import {
  assignSellerStatement,
  findGrantRegion,
  findRateLimit,
  findSeller,
  findSellerOfUser,
  grantDedicatedPackageStatement,
  grantFeedStatement,
  grantPackageStatement,
  insertSellerStatement,
  listSellers,
  packageAllocationIps,
  sellerCodeTaken,
  sellerCustomers,
  setRateLimitStatement,
  updateSellerStatement,
} from '../db/console-customer-tools';
import { findUserById } from '../db/users';
import { ensureCredentials } from './credentials';
import { auditedChange, auditedSave, auditedWrite } from './console-audit';
import { parseCustomerRefs } from './console-campaigns';

export const RATE_LIMIT_MAX = 200;

/** Set a customer's extraction calls per second (their API credentials are created if they had none yet). */
export async function setCustomerRateLimit(
  db: D1Database,
  keyHex: string,
  actor: AuditActor,
  r: { userId: number; rateLimit: number; reason: string },
): Promise<{ rateLimit: number }> {
  if (!(await findUserById(db, r.userId))) throw new AppError('customerNotFound');
  await ensureCredentials(db, keyHex, r.userId, actor.now);
  const before = await findRateLimit(db, r.userId);
  await auditedChange(
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
    'customerNotFound',
  );
  return { rateLimit: r.rateLimit };
}

export const GRANT_LIMITS = { countMax: 10_000_000, dailyMax: 1_000_000, daysMax: 365, dedicatedMax: 100 } as const;

/** An extractable package to grant: 短效 or 长效, 按量 count or 包天 daily volume. */
export interface ExtractableGrant {
  userId: number;
  productType: 10 | 40;
  billingMethod: 1 | 2;
  ipDurationMinutes: number;
  amount: number;
  days: number;
  reason: string;
}

/** Dedicated IPs to grant: 固定IP or 优质IP, ipCount IPs of a region offered for the type (optionally one carrier). */
export interface DedicatedGrant {
  userId: number;
  productType: 30 | 50;
  regionId: number;
  carrier: '' | DedicatedCarrier;
  ipCount: number;
  days: number;
  reason: string;
}

export type DedicatedCarrier = '电信' | '联通' | '移动';
export const DEDICATED_CARRIERS: readonly DedicatedCarrier[] = ['电信', '联通', '移动'];

export type PackageGrant = ExtractableGrant | DedicatedGrant;

const isDedicatedGrant = (r: PackageGrant): r is DedicatedGrant => r.productType === 30 || r.productType === 50;

/** A grant's source_ref: the operator and instant, plus randomness so two grants in one millisecond never collide. */
const grantRef = (actor: AuditActor) =>
  `op:${actor.operatorId ?? 0}:${actor.now}:${crypto.getRandomValues(new Uint32Array(1))[0]?.toString(36)}`;

/**
 * Give a customer a package: an extractable one (短效 or 长效; 按量 count or 包天 daily volume) or dedicated IPs (固定IP,
 * 优质IP) allocated at once from the chosen region and carrier, by the same statements the paid order path's allocation
 * uses (db/fixed.ts). The package, its allocations, the node-feed rows and the audit row are one batch: a dedicated
 * grant is written only when every IP can be allocated now, otherwise nothing is (docs/decisions/161).
 */
export async function grantPackage(
  db: D1Database,
  actor: AuditActor,
  r: PackageGrant,
  /** The audit name: the grant itself, or the second operator's approval of it. */
  action: 'Admin.GrantPackage' | 'Admin.GrantApprove' = 'Admin.GrantPackage',
): Promise<{ packageId: number; name: string; ips?: string[] }> {
  if (isDedicatedGrant(r)) return grantDedicated(db, actor, r, action);
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
    sourceRef: grantRef(actor),
    now: actor.now,
  };
  const insert = grantPackageStatement(db, grant);
  const { of } = await auditedChange(
    db,
    actor,
    {
      action,
      target: `user:${r.userId}`,
      after: { name, totalCount, dailyLimit, days: r.days },
      reason: r.reason,
    },
    [grantFeedStatement(db, r.userId, actor.now), insert],
    'customerNotFound',
  );
  return { packageId: Number(of(insert)?.meta.last_row_id ?? 0), name };
}

async function grantDedicated(
  db: D1Database,
  actor: AuditActor,
  r: DedicatedGrant,
  action: 'Admin.GrantPackage' | 'Admin.GrantApprove',
): Promise<{ packageId: number; name: string; ips: string[] }> {
  if (r.ipCount < 1 || r.ipCount > GRANT_LIMITS.dedicatedMax || r.days < 1 || r.days > GRANT_LIMITS.daysMax) {
    throw new AppError('grantDedicatedInvalid');
  }
  const [user, region] = await Promise.all([
    findUserById(db, r.userId),
    findGrantRegion(db, r.regionId, r.productType),
  ]);
  if (!user) throw new AppError('customerNotFound');
  if (!region) throw new AppError('grantRegionInvalid');
  const source: DedicatedSource = {
    pinned: true,
    provinceKey: region.provinceKey,
    cityKey: region.cityKey,
    carrier: r.carrier,
  };
  const expiresAt = actor.now + r.days * DAY_MS;
  const short = (free: number) =>
    new AppError('grantDedicatedShort', {
      detail: `${region.name}${r.carrier ? `·${r.carrier}` : ''}需要${r.ipCount}个，当前可分配${free}个`,
    });
  // A clear answer before writing; the batch re-checks atomically (a concurrent grant may take the IPs meanwhile).
  const free = await countFreeDedicated(db, source, expiresAt, r.ipCount);
  if (free < r.ipCount) throw short(free);
  const name = `赠送 · ${packageName({ productType: r.productType, billingMethod: 2, ipDurationMinutes: 0, count: 0, dailyLimit: 0, ipCount: r.ipCount, regionName: region.name })}`;
  const sourceRef = grantRef(actor);
  let written: Awaited<ReturnType<typeof auditedWrite>>;
  try {
    written = await auditedWrite(
      db,
      actor,
      {
        action,
        target: `user:${r.userId}`,
        after: { name, ipCount: r.ipCount, region: region.name, carrier: r.carrier || '不限', days: r.days },
        reason: r.reason,
      },
      [
        grantDedicatedPackageStatement(
          db,
          {
            userId: r.userId,
            productType: r.productType,
            name,
            ipCount: r.ipCount,
            expiresAt,
            sourceRef,
            now: actor.now,
          },
          source,
        ),
        ...allocateDedicatedStatements(db, {
          userId: r.userId,
          pkg: { source: 'operator', sourceRef },
          now: actor.now,
          expiresAt,
          count: r.ipCount,
          source,
          orIgnore: false,
        }),
      ],
      { requireChange: true },
    );
  } catch (e) {
    // The one-holder index refused an IP taken by a concurrent write: the whole batch rolled back.
    if (e instanceof Error && /UNIQUE constraint failed/i.test(e.message)) throw short(0);
    throw e;
  }
  const [pkg, allocated] = written.results;
  // The package row is guarded by the same free-IP condition the allocation reads in this transaction, so either both
  // were written (all ipCount IPs) or neither was.
  if (!pkg?.meta.changes || !allocated?.meta.changes)
    throw short(await countFreeDedicated(db, source, expiresAt, r.ipCount));
  const ips = await packageAllocationIps(db, r.userId, Number(pkg.meta.last_row_id));
  return { packageId: Number(pkg.meta.last_row_id), name, ips };
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
  // The UPDATE has no condition beyond the id: it changes nothing only when the row has just gone.
  return auditedSave(db, actor, {
    action: 'Admin.SellerSave',
    kind: 'seller',
    id: r.id,
    reason: r.reason,
    after: fields,
    find: (i) => findSeller(db, i),
    insert: () => insertSellerStatement(db, fields),
    update: (i) => updateSellerStatement(db, i, fields),
    notFound: 'sellerNotFound',
  });
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
  const { changed } = await auditedChange(
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
    'sellerNotFound',
  );
  return { assigned: changed, unknown };
}

/**
 * What the customer screen's tools show: the extraction rate limit (null before the API was opened; 10 is then the
 * default), the grant form's dedicated regions, the assigned seller, and the customer's commission balances and ledger page as a promoter.
 */
export async function customerTools(db: D1Database, userId: number, page: number, now: number) {
  const [rateLimit, seller, summary, ledger, regions] = await Promise.all([
    findRateLimit(db, userId),
    findSellerOfUser(db, userId),
    commissionSummary(db, userId),
    listCommission(db, userId, page, 20),
    dedicatedRegionStock(db, now),
  ]);
  return {
    rateLimit,
    /** Regions a fixed/premium grant may choose, with their free dedicated IPs per carrier now. */
    dedicatedRegions: regions.map(({ id, name, productTypes, free }) => ({ id, name, productTypes, free })),
    seller,
    commission: {
      summary,
      total: ledger.total,
      list: ledger.list.map((e) => ({ ...e, inviteePhone: maskPhone(e.inviteePhone) })),
    },
  };
}
