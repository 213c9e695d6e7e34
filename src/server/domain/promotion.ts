// Promotion: a user's invitation code and link, attribution of new users to promoters or sellers from the promotion
// cookies captured at the edge, and the withdrawal workflow of earned commission.
import { AppError } from '../../lib/errors';
import type { AuditWrite } from '../db/console-audit';
import { PROMOTION_KEYS, parsePromotion } from '../../lib/promotion';
import { findUserById, type UserRecord } from '../db/users';
import { findWithdrawal, hasOpenWithdrawal, requestWithdrawal, transitionWithdrawal } from '../db/commission';
import {
  assignSeller,
  findPromoterByCode,
  findPromotionCode,
  findSellerByCode,
  insertInvitation,
  insertPromotionCode,
} from '../db/promotion';
import { MIN_WITHDRAWAL_FEN, nextWithdrawalState, type WithdrawalDecision } from './commission';

const CODE_CHARS = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A random 8-character invitation code (no look-alike characters). */
export function newPromotionCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => CODE_CHARS[b % CODE_CHARS.length]).join('');
}

/** The user's invitation code, created on first use. */
export async function ensurePromotionCode(db: D1Database, userId: number, now: number): Promise<string> {
  for (let i = 0; i < 5; i++) {
    const existing = await findPromotionCode(db, userId);
    if (existing) return existing.code;
    await insertPromotionCode(db, userId, newPromotionCode(), now);
  }
  const last = await findPromotionCode(db, userId);
  if (!last) throw new Error('could not allocate a promotion code');
  return last.code;
}

/** The invitation link for a code. */
export const invitationLink = (origin: string, code: string) => `${origin}/?did=${encodeURIComponent(code)}`;

/**
 * Attribute a just-registered user from the promotion cookies (did, from, keyword): a seller link (from=seller)
 * assigns the seller; any other valid did naming a user's code records the invitation. Invalid or self links do nothing.
 */
export async function attributeRegistration(
  db: D1Database,
  r: { userId: number; did?: string | undefined; from?: string | undefined; keyword?: string | undefined; now: number },
): Promise<'seller' | 'invited' | 'none'> {
  if (!r.did) return 'none';
  const q = new URLSearchParams();
  q.set('did', safeDecode(r.did));
  if (r.from) q.set('from', safeDecode(r.from));
  if (r.keyword) q.set('keyword', safeDecode(r.keyword));
  const parsed = parsePromotion(q);
  if (parsed.kind !== 'ok') return 'none';
  const { did, from, keyword } = parsed.params;
  if (from === 'seller') {
    const seller = await findSellerByCode(db, did);
    if (seller && (await assignSeller(db, r.userId, seller.id, r.now))) return 'seller';
    return 'none';
  }
  const promoter = await findPromoterByCode(db, did);
  if (promoter === null || promoter === r.userId) return 'none';
  return (await insertInvitation(db, { inviteeId: r.userId, promoterId: promoter, keyword: keyword ?? '', now: r.now }))
    ? 'invited'
    : 'none';
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return '';
  }
}

/** Ask to withdraw all available commission; nothing can be taken twice (see requestWithdrawal). */
export async function askWithdrawal(
  db: D1Database,
  w: { userId: number; accountName: string; accountNo: string; now: number },
): Promise<{ id: number; amountFen: number }> {
  const created = await requestWithdrawal(db, { ...w, minFen: MIN_WITHDRAWAL_FEN });
  if (created) return created;
  throw new AppError((await hasOpenWithdrawal(db, w.userId)) ? 'withdrawOpenExists' : 'withdrawBelowMinimum');
}

/** The operator's decision on a withdrawal (approve, reject, paid), audited. */
export async function decideWithdrawal(
  db: D1Database,
  d: { id: number; decision: WithdrawalDecision; note: string; actorId: number; now: number },
  audit?: (from: number, to: number) => AuditWrite,
): Promise<{ state: number }> {
  const w = await findWithdrawal(db, d.id);
  if (!w) throw new AppError('withdrawNotFound');
  const to = nextWithdrawalState(w.state, d.decision);
  if (to === null) throw new AppError('withdrawStateChanged');
  const moved = await transitionWithdrawal(
    db,
    {
      id: w.id,
      from: w.state,
      to,
      actorId: d.actorId,
      note: d.note,
      now: d.now,
    },
    audit?.(w.state, to),
  );
  if (!moved) throw new AppError('withdrawStateChanged');
  return { state: to };
}

/**
 * Credit a just-registered user to a promoter or seller from the 30-day promotion cookies (User.LoginRegister);
 * returns the user as stored afterwards.
 */
export async function attributeFromCookies(
  db: D1Database,
  user: UserRecord,
  getCookie: (name: string) => string | undefined,
  now: number,
): Promise<UserRecord> {
  const [did, from, keyword] = PROMOTION_KEYS.map((k) => getCookie(k));
  const outcome = await attributeRegistration(db, { userId: user.id, did, from, keyword, now });
  if (outcome === 'none') return user;
  return (await findUserById(db, user.id)) ?? user;
}
