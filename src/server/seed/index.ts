// The demo data set for local development, as SQL (applied by scripts/seed.mjs with wrangler, and by tests).
import { demoAccountsSql } from './accounts';
import { demoCommerceSql } from './commerce';
import { demoConsoleSql } from './console';
import { demoContentSql } from './content-sql';
import { DEFAULT_DEV_NODE_SECRET, type DeliverySeedOptions, demoDeliverySql } from './delivery';
import { demoTrustSql } from './trust';

export { DEMO_LICENCE_KEYS } from './console';
export { DEFAULT_DEV_NODE_SECRET } from './delivery';

/** All demo data as idempotent SQL statements. */
export async function demoSeedSql(
  now = Date.now(),
  delivery: DeliverySeedOptions = { demoPool: false, devNodeSecret: DEFAULT_DEV_NODE_SECRET },
): Promise<string> {
  return [
    await demoAccountsSql(now),
    demoContentSql(now),
    await demoDeliverySql(now, delivery),
    demoCommerceSql(now),
    demoTrustSql(now),
    await demoConsoleSql(now, { demoPool: delivery.demoPool }),
  ].join('\n');
}
