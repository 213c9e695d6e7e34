// Every 5 minutes: convert customers' API secrets still stored in plain (rows from before migration 0029)
// (docs/decisions/199, 200): the extraction key to its keyed hash, the proxy password sealed with its verifier. An
// extraction key is also hashed by its first use; this job covers keys nobody calls and every proxy password. Each
// write is conditional on the plain value read, so a reset or rotation meanwhile wins. Its own job: a missing
// NODE_SECRET_KEY fails this job only.
import { hashApiKeyStatement, plainCredentials, sealPasswordStatement } from '../db/credentials';
import { hashExtractKey, isHashedExtractKey, isSealedProxyPassword } from '../domain/credential-secrets';
import { storedPassword } from '../domain/credentials';
import { readConfig } from '../env';
import type { Job } from './job';

/** Rows converted per run (each costs two statements of one batch). */
const CREDENTIALS_PER_RUN = 200;

export const sealCredentialsJob: Job = {
  name: 'credentials-seal',
  async run(env) {
    const rows = await plainCredentials(env.DB, CREDENTIALS_PER_RUN);
    if (rows.length === 0) return { hashedKeys: 0, sealedPasswords: 0 };
    const key = readConfig(env).nodeSecretKey;
    const keys: D1PreparedStatement[] = [];
    const passwords: D1PreparedStatement[] = [];
    for (const r of rows) {
      if (!isHashedExtractKey(r.apiKey)) {
        keys.push(hashApiKeyStatement(env.DB, r.userId, r.apiKey, await hashExtractKey(key, r.apiKey)));
      }
      if (!isSealedProxyPassword(r.password)) {
        const stored = await storedPassword(key, r.username, r.password);
        passwords.push(
          sealPasswordStatement(env.DB, {
            userId: r.userId,
            username: r.username,
            plain: r.password,
            ...{ sealed: stored.sealedPassword, verifier: stored.verifier },
          }),
        );
      }
    }
    const results = await env.DB.batch([...keys, ...passwords]);
    const changed = (from: number, to: number) =>
      results.slice(from, to).reduce((n, r) => n + (r.meta.changes ?? 0), 0);
    return { hashedKeys: changed(0, keys.length), sealedPasswords: changed(keys.length, results.length) };
  },
};
