// Grants above a configurable size wait for a second operator (docs/decisions/198): Admin.GrantPackage records a
// pending request (audited), a different operator approves it (the grant is then written, audited as
// Admin.GrantApprove) or rejects it. The sizes are a site setting an admin edits (audited).
import { IP_DURATIONS } from '../../lib/catalogue-rules';
import { AppError } from '../../lib/errors';
import {
  decideGrantRequestStatement,
  findGrantRequest,
  finishGrantRequest,
  insertGrantRequestStatement,
} from '../db/grant-requests';
import type { AuditActor } from '../db/console-audit';
import { upsertSettingStatement } from '../db/console-content';
import { readSetting } from '../db/site-content';
import { findUserById } from '../db/users';
import { auditedChange, auditedWrite } from './console-audit';
import { grantPackage, type PackageGrant } from './console-customer-tools';
import { GRANT_REQUEST_STATE } from '../../lib/trust-states';

export const GRANT_APPROVAL_SETTING = 'grant_approval_above';

/** Above these a grant needs a second operator: IPs of a 按量 grant, the daily volume of 包天, dedicated IPs. */
export interface GrantApprovalLimits {
  count: number;
  daily: number;
  dedicated: number;
}

export const DEFAULT_GRANT_APPROVAL: GrantApprovalLimits = { count: 100_000, daily: 10_000, dedicated: 10 };

/** The sizes above which a grant waits for approval (the admin's setting, else the defaults). */
export async function grantApprovalLimits(db: D1Database): Promise<GrantApprovalLimits> {
  const raw = await readSetting(db, GRANT_APPROVAL_SETTING);
  try {
    const v = raw ? (JSON.parse(raw) as Partial<GrantApprovalLimits>) : {};
    const pick = (n: unknown, d: number) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : d);
    return {
      count: pick(v.count, DEFAULT_GRANT_APPROVAL.count),
      daily: pick(v.daily, DEFAULT_GRANT_APPROVAL.daily),
      dedicated: pick(v.dedicated, DEFAULT_GRANT_APPROVAL.dedicated),
    };
  } catch {
    return DEFAULT_GRANT_APPROVAL;
  }
}

/** Save the sizes (admin; audited). */
export async function saveGrantApprovalLimits(
  db: D1Database,
  actor: AuditActor,
  input: GrantApprovalLimits & { reason: string },
): Promise<GrantApprovalLimits> {
  const { reason, ...limits } = input;
  await auditedWrite(
    db,
    actor,
    {
      action: 'Admin.GrantApprovalSave',
      target: `setting:${GRANT_APPROVAL_SETTING}`,
      before: await grantApprovalLimits(db),
      after: limits,
      reason,
    },
    [upsertSettingStatement(db, GRANT_APPROVAL_SETTING, JSON.stringify(limits), actor.now)],
  );
  return limits;
}

const sizeOf = (r: PackageGrant, l: GrantApprovalLimits): { over: boolean; summary: string } => {
  if ('ipCount' in r) {
    return { over: r.ipCount > l.dedicated, summary: `独享IP ${r.ipCount} 个，${r.days} 天` };
  }
  return r.billingMethod === 1
    ? { over: r.amount > l.count, summary: `按量 ${r.amount} 个IP，${r.days} 天` }
    : { over: r.amount > l.daily, summary: `包天 每日 ${r.amount} 个IP，${r.days} 天` };
};

export type GrantOutcome =
  | { pending: false; packageId: number; name: string; ips?: string[] }
  | { pending: true; requestId: number };

/** Grant at once when within the sizes, else record a pending request for a second operator. */
export async function grantOrRequest(db: D1Database, actor: AuditActor, r: PackageGrant): Promise<GrantOutcome> {
  const { over, summary } = sizeOf(r, await grantApprovalLimits(db));
  if (!over) return { pending: false, ...(await grantPackage(db, actor, r)) };
  // What can be checked now is checked now, so a request that could never be granted is not queued.
  if (!('ipCount' in r) && !(IP_DURATIONS[r.productType] ?? []).includes(r.ipDurationMinutes)) {
    throw new AppError('catalogueDurationInvalid');
  }
  if (!(await findUserById(db, r.userId))) throw new AppError('customerNotFound');
  const { results } = await auditedChange(
    db,
    actor,
    {
      action: 'Admin.GrantPackage',
      target: `user:${r.userId}`,
      after: `待第二位运营审批：${summary}`,
      reason: r.reason,
    },
    [
      insertGrantRequestStatement(db, {
        userId: r.userId,
        params: JSON.stringify(r),
        summary,
        requestedBy: actor.operatorId ?? 0,
        requestedName: actor.operatorName,
        now: actor.now,
      }),
    ],
    'customerNotFound',
  );
  const id = Number((results[0]?.results?.[0] as { id?: number } | undefined)?.id ?? 0);
  return { pending: true, requestId: id };
}

/** A second operator approves (the grant is written now) or rejects a pending request. */
export async function decideGrant(
  db: D1Database,
  actor: AuditActor,
  d: { requestId: number; approve: boolean; reason: string },
): Promise<{ state: 2 | 3; packageId: number | null }> {
  const req = await findGrantRequest(db, d.requestId);
  if (!req) throw new AppError('grantRequestNotFound');
  if (req.requestedBy === actor.operatorId) throw new AppError('grantSelfApproval');
  if (req.state !== GRANT_REQUEST_STATE.pending) throw new AppError('grantRequestDecided');
  const claim = decideGrantRequestStatement(db, {
    id: d.requestId,
    state: d.approve ? 2 : 3,
    operatorId: actor.operatorId ?? 0,
    operatorName: actor.operatorName,
    now: actor.now,
  });
  if (!d.approve) {
    await auditedChange(
      db,
      actor,
      { action: 'Admin.GrantReject', target: `grant_request:${req.id}`, after: req.summary, reason: d.reason },
      [claim],
      'grantRequestDecided',
    );
    return { state: 3, packageId: null };
  }
  // Claimed first, so two approvers never grant twice; a grant that fails puts the request back to pending.
  if (!(await claim.run()).meta.changes) throw new AppError('grantRequestDecided');
  try {
    const params = JSON.parse(req.params) as PackageGrant;
    const done = await grantPackage(
      db,
      actor,
      { ...params, reason: `${d.reason}（审批#${req.id}）` },
      'Admin.GrantApprove',
    );
    await finishGrantRequest(db, req.id, done.packageId);
    return { state: 2, packageId: done.packageId };
  } catch (err) {
    await finishGrantRequest(db, req.id, null);
    throw err;
  }
}
