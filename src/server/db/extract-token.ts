// AES extraction tokens already used (docs/decisions/045): each is accepted once while it is fresh.

/** Record a token's use; false when it was used before (the primary key makes this atomic). */
export async function markTokenUsed(db: D1Database, userId: number, digest: string, expiresAt: number) {
  const res = await db
    .prepare(
      'INSERT INTO extract_token_uses (user_id, digest, expires_at) VALUES (?, ?, ?) ON CONFLICT(user_id, digest) DO NOTHING',
    )
    .bind(userId, digest, expiresAt)
    .run();
  return res.meta.changes === 1;
}
