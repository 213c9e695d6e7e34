// The demo data set for local development, as SQL (applied by scripts/seed.mjs with wrangler, and by tests).
import { demoAccountsSql } from './accounts';

/** All demo data as idempotent SQL statements. */
export async function demoSeedSql(now = Date.now()): Promise<string> {
  return [await demoAccountsSql(now)].join('\n');
}
