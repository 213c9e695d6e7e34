// The demo data set for local development, as SQL (applied by scripts/seed.mjs with wrangler, and by tests).
import { demoAccountsSql } from './accounts';
import { demoCommerceSql } from './commerce';
import { demoContentSql } from './content-sql';
import { demoDeliverySql } from './delivery';
import { demoTrustSql } from './trust';

/** All demo data as idempotent SQL statements. */
export async function demoSeedSql(now = Date.now()): Promise<string> {
  return [
    await demoAccountsSql(now),
    demoContentSql(now),
    demoDeliverySql(now),
    demoCommerceSql(now),
    demoTrustSql(now),
  ].join('\n');
}
