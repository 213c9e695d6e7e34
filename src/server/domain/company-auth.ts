// Company authentication: the licence image rules, the application state machine (docs/decisions/061) and the
// submit / review operations. State values mirror users.company_auth_state.
import { AppError } from '../../lib/errors';
import type { AuditWrite } from '../db/console-audit';
import {
  findCompanyAuth,
  findLicenceUpload,
  insertCompanyAuth,
  isCompanyTaken,
  transitionCompanyAuth,
} from '../db/company';
import { type IdentityKeys, keyedHash } from './identity-crypto';
import { isValidCreditCode } from '../../lib/identity-number';
import { COMPANY_STATE } from '../../lib/company-states';

export const COMPANY_NONE = COMPANY_STATE.none;
export const COMPANY_APPROVED = COMPANY_STATE.approved;
export const COMPANY_INDIVIDUAL = COMPANY_STATE.individual;
export const COMPANY_REVOKED = COMPANY_STATE.revoked;
export const COMPANY_PENDING = COMPANY_STATE.pending;
export const COMPANY_REJECTED = COMPANY_STATE.rejected;

/** States from which a user may (re)submit an application. */
export const SUBMITTABLE_FROM = [COMPANY_NONE, COMPANY_REJECTED];

export type ReviewDecision = 'approve' | 'individual' | 'reject' | 'revoke';

/** The state a review decision leads to from a state, or null when the move is not allowed. */
export function nextCompanyState(from: number, decision: ReviewDecision): number | null {
  if (from === COMPANY_PENDING) {
    if (decision === 'approve') return COMPANY_APPROVED;
    if (decision === 'individual') return COMPANY_INDIVIDUAL;
    if (decision === 'reject') return COMPANY_REJECTED;
  }
  if (from === COMPANY_APPROVED && decision === 'revoke') return COMPANY_REVOKED;
  return null;
}

/** The Chinese name of a company state for the UI. */
export function companyStateText(state: number): string {
  switch (state) {
    case COMPANY_APPROVED:
      return '企业已认证';
    case COMPANY_INDIVIDUAL:
      return '已按个人认证';
    case COMPANY_REVOKED:
      return '企业认证已撤销';
    case COMPANY_PENDING:
      return '审核中';
    case COMPANY_REJECTED:
      return '未通过';
    default:
      return '未提交';
  }
}

export const MAX_LICENCE_BYTES = 5 * 1024 * 1024;
/** Licence uploads per user per hour (reserved atomically before the image is stored). */
export const MAX_LICENCE_UPLOADS_PER_HOUR = 20;

/** The image type by its magic bytes (jpeg, png, webp), or null for anything else. */
export function sniffImageType(head: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  const b = (i: number) => head[i] ?? -1;
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'image/jpeg';
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b(i) === v)) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** Submit a company application for review. */
export async function submitCompanyAuth(
  db: D1Database,
  keys: IdentityKeys,
  a: {
    userId: number;
    currentState: number;
    companyName: string;
    creditCode: string;
    legalPerson: string;
    licenceUploadId: number;
    remark: string;
    now: number;
  },
): Promise<void> {
  if (a.currentState === COMPANY_PENDING) throw new AppError('companyPending');
  if (a.currentState === COMPANY_APPROVED) throw new AppError('companyAlreadyApproved');
  const creditCode = a.creditCode.trim().toUpperCase();
  if (!isValidCreditCode(creditCode)) throw new AppError('creditCodeInvalid');
  const upload = await findLicenceUpload(db, a.licenceUploadId);
  if (!upload || upload.userId !== a.userId) throw new AppError('licenceMissing');
  const creditHash = await keyedHash(keys, 'credit', creditCode);
  if (await isCompanyTaken(db, creditHash, a.userId)) throw new AppError('companyTaken');
  const ok = await insertCompanyAuth(db, {
    userId: a.userId,
    companyName: a.companyName.trim(),
    creditCode,
    creditHash,
    legalPerson: a.legalPerson.trim(),
    licenceUploadId: upload.id,
    userRemark: a.remark,
    allowedFrom: SUBMITTABLE_FROM,
    now: a.now,
  });
  if (!ok) throw new AppError('companyPending');
}

/** The operator's review of an application (approve, individual, reject, revoke), audited. */
export async function reviewCompanyAuth(
  db: D1Database,
  r: { id: number; decision: ReviewDecision; remark: string; actorId: number; now: number },
  audit?: (from: number, to: number) => AuditWrite,
): Promise<{ state: number }> {
  const app = await findCompanyAuth(db, r.id);
  if (!app) throw new AppError('companyNotFound');
  const to = nextCompanyState(app.state, r.decision);
  if (to === null) throw new AppError('companyStateChanged');
  let moved: boolean;
  try {
    moved = await transitionCompanyAuth(
      db,
      {
        id: app.id,
        from: app.state,
        to,
        actorId: r.actorId,
        remark: r.remark,
        now: r.now,
      },
      audit?.(app.state, to),
    );
  } catch (err) {
    if (String(err).includes('UNIQUE')) throw new AppError('companyTaken');
    throw err;
  }
  if (!moved) throw new AppError('companyStateChanged');
  return { state: to };
}
