// Queries for account settings: the phone-change grant, the phone itself, the auto-replace switch.

/** Remember that the old phone was re-verified, until expiresAt. */
export async function grantPhoneChange(db: D1Database, userId: number, expiresAt: number): Promise<void> {
  await db
    .prepare(
      'INSERT INTO phone_change_grants (user_id, expires_at) VALUES (?, ?) ON CONFLICT(user_id) DO UPDATE SET expires_at = excluded.expires_at',
    )
    .bind(userId, expiresAt)
    .run();
}

/** True while the user holds a live phone-change grant. */
export async function hasPhoneChangeGrant(db: D1Database, userId: number, now: number): Promise<boolean> {
  const row = await db
    .prepare('SELECT 1 AS x FROM phone_change_grants WHERE user_id = ? AND expires_at > ?')
    .bind(userId, now)
    .first();
  return row !== null;
}

/**
 * Change the phone in one transaction, consuming the grant: the UPDATE happens only while the grant is live, and the
 * UNIQUE(phone) constraint refuses a phone another account holds (the batch then throws).
 */
export async function changePhoneWithGrant(
  db: D1Database,
  userId: number,
  phone: string,
  now: number,
): Promise<boolean> {
  const [upd] = await db.batch([
    db
      .prepare(
        `UPDATE users SET phone = ?, updated_at = ? WHERE id = ?
         AND EXISTS (SELECT 1 FROM phone_change_grants WHERE user_id = ? AND expires_at > ?)`,
      )
      .bind(phone, now, userId, userId, now),
    db.prepare('DELETE FROM phone_change_grants WHERE user_id = ?').bind(userId),
  ]);
  return upd?.meta.changes === 1;
}

/** True when a phone belongs to any account. */
export async function isPhoneRegistered(db: D1Database, phone: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS x FROM users WHERE phone = ?').bind(phone).first()) !== null;
}

/** Read the auto-replace switch. */
export async function getAutoReplace(db: D1Database, userId: number): Promise<boolean> {
  const row = await db
    .prepare('SELECT auto_replace FROM users WHERE id = ?')
    .bind(userId)
    .first<{ auto_replace: number }>();
  return row?.auto_replace === 1;
}

/** Set the auto-replace switch. */
export async function setAutoReplace(db: D1Database, userId: number, on: boolean, now: number): Promise<void> {
  await db
    .prepare('UPDATE users SET auto_replace = ?, updated_at = ? WHERE id = ?')
    .bind(on ? 1 : 0, now, userId)
    .run();
}
