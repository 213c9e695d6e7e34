// Every 5 minutes: seal node secrets still stored in plain (rows from before NODE_SECRET_KEY, or written by the
// development seed) with NODE_SECRET_KEY (docs/decisions/162). A node's own next accepted call seals its row as well;
// this job covers nodes that are silent. Its own job, so a missing key in production fails this job only.
import { plainNodeSecrets, sealNodeSecretStatement } from '../db/pool';
import { sealNodeSecret } from '../domain/node-secrets';
import { readConfig } from '../env';
import type { Job } from './job';

export const sealNodeSecretsJob: Job = {
  name: 'node-secrets-seal',
  async run(env) {
    const rows = await plainNodeSecrets(env.DB, 100);
    if (rows.length === 0) return { sealed: 0 };
    const key = readConfig(env).nodeSecretKey;
    const statements = await Promise.all(
      rows.map(async (r) => sealNodeSecretStatement(env.DB, r.id, r.secret, await sealNodeSecret(key, r.secret))),
    );
    const results = await env.DB.batch(statements);
    return { sealed: results.reduce((n, r) => n + (r.meta.changes ?? 0), 0) };
  },
};
