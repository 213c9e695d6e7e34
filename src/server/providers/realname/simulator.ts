// Development face verification: init records a session and returns the local page /dev/faceverify/<certifyId>, where
// the developer clicks 通过 or 不通过; describe reads the verdict recorded server-side. Never used in production
// (the factory and the /dev routes both refuse there).
import { findSimulatorSession, insertSimulatorSession } from '../../db/realname';
import { maskName } from '../../../lib/identity-number';
import type { FaceVerifyInit, FaceVerifyProvider } from './types';

/** A FaceVerifyProvider whose verdicts come from the local simulator page. */
export function createFaceSimulator(db: D1Database, now: () => number): FaceVerifyProvider {
  return {
    name: 'simulator',
    async init(req: FaceVerifyInit) {
      const certifyId = `sim${crypto.randomUUID().replace(/-/g, '')}`;
      await insertSimulatorSession(db, {
        certifyId,
        outerOrderNo: req.outerOrderNo,
        nameMasked: maskName(req.certName),
        returnUrl: req.returnUrl,
        now: now(),
      });
      const origin = new URL(req.returnUrl).origin;
      return { certifyId, certifyUrl: `${origin}/dev/faceverify/${certifyId}` };
    },
    async describe(certifyId: string) {
      const s = await findSimulatorSession(db, certifyId);
      if (!s?.verdict) return { passed: false, subCode: 'Z1001' }; // not finished yet
      return { passed: s.verdict === 'T', subCode: s.verdict === 'T' ? '200' : 'Z5120' };
    },
  };
}
