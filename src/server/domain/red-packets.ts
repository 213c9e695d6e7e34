// Red packets: the current launch (redInfo), receiving at most one packet per user within the launch's budget, and
// turning a received packet into a proxy package.
import { AppError } from '../../lib/errors';
import { findLaunch, findRecord, hasReceived, receivePacket, redeemPacketRecord } from '../db/red-packets';
import { RED_RECORD_STATE } from '../../lib/trust-states';

/** Receive a packet of a launch. */
export async function receiveRedPacket(
  db: D1Database,
  r: { launchId: number; userId: number; now: number },
): Promise<{ recordId: number }> {
  const recordId = await receivePacket(db, r);
  if (recordId !== null) return { recordId };
  // Explain the refusal (nothing was written).
  const launch = await findLaunch(db, r.launchId);
  if (!launch || launch.startsAt > r.now || launch.endsAt <= r.now) throw new AppError('redLaunchUnavailable');
  if (await hasReceived(db, r.launchId, r.userId)) throw new AppError('redAlreadyReceived');
  if (launch.received >= launch.budget) throw new AppError('redLaunchEmpty');
  throw new AppError('redLaunchUnavailable');
}

/** Use a received packet: creates its proxy package once. */
export async function redeemRedPacket(
  db: D1Database,
  r: { userId: number; recordId: number; now: number },
): Promise<{ packageId: number }> {
  const packageId = await redeemPacketRecord(db, r);
  if (packageId !== null) return { packageId };
  const rec = await findRecord(db, r.userId, r.recordId);
  if (rec && rec.state === RED_RECORD_STATE.received && rec.expiresAt <= r.now) throw new AppError('redRecordExpired');
  throw new AppError('redRecordNotFound');
}
