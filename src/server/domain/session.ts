// Login sessions: a random token per login, only its SHA-256 stored, with idle and absolute expiry.
import 'server-only';
import { randomToken, sha256Hex } from '../crypto';
import {
  deleteSession,
  findSessionWithUser,
  insertSession,
  type SessionTable,
  type SessionTimes,
  touchSession,
} from '../db/sessions';
import type { UserRecord } from '../db/users';
import { DAY_MS, MINUTE_MS } from '../../lib/time';
import { ACCOUNT_STATUS } from '../../lib/console-states';

export const SESSION_IDLE_MS = 7 * DAY_MS;
export const SESSION_ABSOLUTE_MS = 30 * DAY_MS;
/** last_seen is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 10 * MINUTE_MS;

/** Start a session; returns the token to set as the cookie (never stored). */
export async function startSession(
  db: D1Database,
  s: { userId: number; now: number; ip: string; userAgent: string },
): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken(32);
  const expiresAt = s.now + SESSION_ABSOLUTE_MS;
  await insertSession(db, { tokenHash: await sha256Hex(token), expiresAt, ...s });
  return { token, expiresAt };
}

/** The live session and active user behind a token, or null (expired sessions are deleted on sight). */
export async function resolveSession(
  db: D1Database,
  token: string | undefined,
  now: number,
): Promise<{ user: UserRecord; sessionId: number } | null> {
  if (!token || token.length > 128) return null;
  // The session and its account in one round trip: every signed-in page and /api call starts here.
  const found = await findSessionWithUser(db, await sha256Hex(token));
  if (!found) return null;
  const { session, user } = found;
  if (await endedOnSight(db, 'sessions', session, now, SESSION_IDLE_MS)) return null;
  if (user?.status !== ACCOUNT_STATUS.active) return null;
  if (now - session.lastSeenAt > TOUCH_INTERVAL_MS) await touchSession(db, 'sessions', session.id, now);
  return { user, sessionId: session.id };
}

/**
 * Customers' and operators' sessions expire alike: past the absolute expiry or idle for `idleMs`, the row is deleted
 * on sight and true returned.
 */
export async function endedOnSight(
  db: D1Database,
  table: SessionTable,
  session: SessionTimes,
  now: number,
  idleMs: number,
): Promise<boolean> {
  if (session.expiresAt > now && session.lastSeenAt + idleMs > now) return false;
  await deleteSession(db, table, session.id);
  return true;
}

/** End one session (logout). */
export async function endSession(db: D1Database, sessionId: number): Promise<void> {
  await deleteSession(db, 'sessions', sessionId);
}
