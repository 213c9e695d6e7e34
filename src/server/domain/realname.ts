// Personal real-name authentication: start a face verification for a name and ID number, then confirm it by asking
// the provider (never the client). The identity is stored encrypted with a keyed hash; one identity, one account.
import { AppError } from '../../lib/errors';
import {
  bindIdentity,
  failVerification,
  findUserVerification,
  reserveVerification,
  setVerificationCertifyId,
} from '../db/realname';
import type { FaceVerifyProvider } from '../providers/realname/types';
import { encryptField, type IdentityKeys, keyedHash } from './identity-crypto';
import { isPlausibleName, isValidIdNumber, maskIdNumber, maskName, normaliseIdNumber } from '../../lib/identity-number';
import { DAY_MS } from '../../lib/time';
import { VERIFICATION_STATE } from '../../lib/trust-states';

/** Verifications a user may start per 24 hours (each costs a vendor call). */
export const MAX_VERIFICATIONS_PER_DAY = 5;

/** The keyed hash that identifies a person across accounts. */
export const identityHash = (keys: IdentityKeys, idNumber: string) =>
  keyedHash(keys, 'id', normaliseIdNumber(idNumber));

/** Start a verification; returns the URL the browser opens. */
export async function startVerification(
  db: D1Database,
  provider: FaceVerifyProvider,
  keys: IdentityKeys,
  r: { userId: number; alreadyVerified: boolean; name: string; idNumber: string; returnUrl: string; now: number },
): Promise<{ certifyId: string; certifyUrl: string }> {
  if (r.alreadyVerified) throw new AppError('alreadyVerified');
  const name = r.name.trim();
  const idNumber = normaliseIdNumber(r.idNumber);
  if (!isPlausibleName(name)) throw new AppError('nameInvalid');
  if (!isValidIdNumber(idNumber, r.now)) throw new AppError('idNumberInvalid');
  const idHash = await identityHash(keys, idNumber);
  // Whether the identity is bound to another account is told only after a passed face verification (bindIdentity),
  // never here: otherwise any logged-in user could test ID numbers. Every start counts against the daily limit, which
  // is reserved atomically before the vendor is called (docs/decisions/061).
  const outerOrderNo = `RN${r.now.toString(36)}${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`.slice(0, 32);
  const attemptId = await reserveVerification(
    db,
    {
      userId: r.userId,
      outerOrderNo,
      provider: provider.name,
      nameEnc: await encryptField(keys, name),
      idNoEnc: await encryptField(keys, idNumber),
      idHash,
      idMasked: maskIdNumber(idNumber),
      nameMasked: maskName(name),
      createdAt: r.now,
    },
    { since: r.now - DAY_MS, max: MAX_VERIFICATIONS_PER_DAY },
  );
  if (attemptId === null) throw new AppError('certifyTooFrequent');
  const returnUrl = `${r.returnUrl}${r.returnUrl.includes('?') ? '&' : '?'}outerOrderNo=${outerOrderNo}`;
  let started: { certifyId: string; certifyUrl: string };
  try {
    started = await provider.init({ outerOrderNo, certName: name, certNo: idNumber, returnUrl });
  } catch (err) {
    console.error(
      JSON.stringify({ level: 'error', where: 'faceverify.init', provider: provider.name, error: String(err) }),
    );
    // The attempt stays counted (the vendor may have been reached) and is closed as failed.
    await failVerification(db, attemptId, 'INIT_FAILED', r.now);
    throw new AppError('faceServiceFailed');
  }
  await setVerificationCertifyId(db, attemptId, started.certifyId);
  return started;
}

export interface VerificationOutcome {
  passed: boolean;
  idMasked: string;
  nameMasked: string;
}

/** Ask the provider for the verdict of the user's own verification and bind the identity when it passed. */
export async function confirmVerification(
  db: D1Database,
  provider: FaceVerifyProvider,
  r: { userId: number; certifyId: string; now: number },
): Promise<VerificationOutcome> {
  const v = await findUserVerification(db, r.userId, r.certifyId);
  if (!v) throw new AppError('certifyNotFound');
  const shown = { idMasked: v.idMasked, nameMasked: v.nameMasked };
  if (v.state === VERIFICATION_STATE.passed) return { passed: true, ...shown };
  if (v.state === VERIFICATION_STATE.taken) throw new AppError('identityTaken');
  if (v.state === VERIFICATION_STATE.failed) throw new AppError('certifyFailed');
  let verdict: { passed: boolean; subCode: string };
  try {
    verdict = await provider.describe(v.certifyId);
  } catch (err) {
    console.error(JSON.stringify({ level: 'error', where: 'faceverify.describe', error: String(err) }));
    throw new AppError('faceServiceFailed');
  }
  if (!verdict.passed) {
    // Z1001: the simulator's "not finished yet"; the attempt stays open.
    if (verdict.subCode === 'Z1001') throw new AppError('certifyPending');
    await failVerification(db, v.id, verdict.subCode, r.now);
    throw new AppError('certifyFailed');
  }
  const bound = await bindIdentity(db, v, r.now);
  if (bound === 'taken') throw new AppError('identityTaken');
  return { passed: true, ...shown };
}
