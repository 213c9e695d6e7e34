// Queries for promotion: users' invitation codes, material, sellers, invitations (attribution at registration).
import { COMMISSION_STATE } from '../../lib/commission-rules';
import { COMPANY_VERIFIED_SQL } from '../../lib/company-states';

/** The user's invitation code, or null. */
export async function findPromotionCode(
  db: D1Database,
  userId: number,
): Promise<{ code: string; createdAt: number } | null> {
  const row = await db
    .prepare('SELECT code, created_at FROM user_promotions WHERE user_id = ?')
    .bind(userId)
    .first<{ code: string; created_at: number }>();
  return row ? { code: row.code, createdAt: row.created_at } : null;
}

/** Give the user a code unless they have one; false when the code collided with another user's. */
export async function insertPromotionCode(db: D1Database, userId: number, code: string, now: number): Promise<boolean> {
  try {
    await db
      .prepare(
        'INSERT INTO user_promotions (user_id, code, created_at) VALUES (?, ?, ?) ON CONFLICT(user_id) DO NOTHING',
      )
      .bind(userId, code, now)
      .run();
    return true;
  } catch (err) {
    if (String(err).includes('UNIQUE')) return false;
    throw err;
  }
}

/** The user owning an invitation code. */
export async function findPromoterByCode(db: D1Database, code: string): Promise<number | null> {
  const row = await db
    .prepare('SELECT user_id FROM user_promotions WHERE code = ?')
    .bind(code)
    .first<{ user_id: number }>();
  return row?.user_id ?? null;
}

/** The enabled seller with a link code. */
export async function findSellerByCode(db: D1Database, code: string): Promise<{ id: number; phone: string } | null> {
  const row = await db
    .prepare('SELECT id, phone FROM sellers WHERE code = ? AND enabled = 1')
    .bind(code)
    .first<{ id: number; phone: string }>();
  return row ?? null;
}

/** Assign a seller to a user who has none. */
export async function assignSeller(db: D1Database, userId: number, sellerId: number, now: number): Promise<boolean> {
  const res = await db
    .prepare('UPDATE users SET seller_id = ?, updated_at = ? WHERE id = ? AND seller_id IS NULL')
    .bind(sellerId, now, userId)
    .run();
  return res.meta.changes === 1;
}

/** Record who invited a new user (first attribution wins). */
export async function insertInvitation(
  db: D1Database,
  i: { inviteeId: number; promoterId: number; keyword: string; now: number },
): Promise<boolean> {
  const res = await db
    .prepare(
      'INSERT INTO invitations (invitee_id, promoter_id, keyword, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    .bind(i.inviteeId, i.promoterId, i.keyword, i.now)
    .run();
  return res.meta.changes === 1;
}

export interface InvitationRow {
  inviteePhone: string;
  invitedAt: number;
  isVerified: boolean;
  orderCount: number;
  commissionFen: number;
}

/** A page of the promoter's invitees with what each has earned them. */
export async function listInvitations(
  db: D1Database,
  promoterId: number,
  page: number,
  pageSize: number,
): Promise<{ list: InvitationRow[]; total: number }> {
  const [rows, total] = await db.batch([
    db
      .prepare(
        `SELECT u.phone, i.created_at, (u.is_identity_auth = 1 OR u.company_auth_state IN (${COMPANY_VERIFIED_SQL})) AS verified,
           (SELECT count(*) FROM commission_entries e WHERE e.invitee_id = i.invitee_id AND e.amount_fen > 0) AS orders,
           (SELECT COALESCE(SUM(e.amount_fen), 0) FROM commission_entries e WHERE e.invitee_id = i.invitee_id AND e.state != ${COMMISSION_STATE.reversed}) AS earned
         FROM invitations i JOIN users u ON u.id = i.invitee_id
         WHERE i.promoter_id = ? ORDER BY i.created_at DESC LIMIT ? + 0 OFFSET ?`,
      )
      .bind(promoterId, pageSize, (page - 1) * pageSize),
    db.prepare('SELECT count(*) AS n FROM invitations WHERE promoter_id = ?').bind(promoterId),
  ]);
  type Row = { phone: string; created_at: number; verified: number; orders: number; earned: number };
  return {
    list: ((rows?.results ?? []) as Row[]).map((r) => ({
      inviteePhone: r.phone,
      invitedAt: r.created_at,
      isVerified: r.verified === 1,
      orderCount: r.orders,
      commissionFen: r.earned,
    })),
    total: ((total?.results ?? []) as { n: number }[])[0]?.n ?? 0,
  };
}

export interface PromotionMaterial {
  id: number;
  kind: 'text' | 'image';
  title: string;
  content: string;
}

/** Enabled promotion material in display order. */
export async function listMaterials(db: D1Database): Promise<PromotionMaterial[]> {
  const { results } = await db
    .prepare('SELECT id, kind, title, content FROM promotion_materials WHERE enabled = 1 ORDER BY sort, id')
    .all<PromotionMaterial>();
  return results;
}
