// Delivery jobs. Every 5 minutes: expire packages, pool IPs and white-list entries, allocate/release dedicated IPs,
// and roll the current and previous hour into usage_hourly (so charts lag at most 5 minutes). Hourly at :07: roll the
// last 3 hours again (late node reports) and recompute today's and yesterday's usage_daily; prune the node change
// feed (24 h), node batch markers (35 days) and node usage/refusal rows left in D1 past 180 days (the archive takes
// them after 7).

import { DAY_MS, HOUR_MS, shanghaiMidnight } from '../../lib/time';
import { allocateFixedIps, releaseLapsedFixed } from '../db/fixed';
import { markStaleExits, pruneFeed, pruneNodeData } from '../db/node-contract';
import { purgeNodeBatchMarkers } from '../db/console-retention';
import { expireLapsedPackages } from '../db/packages';
import { expirePoolIps } from '../db/pool';
import { rollupDays, rollupHours } from '../db/records';
import { disableExpiredWhiteList } from '../db/white-list';
import { handOverLostReceipts } from '../domain/receipts';
import { FEED_RETENTION_MS, NODE_HEARTBEAT_MS, STALE_INTERVALS } from '../domain/node-contract';
import { type Job, runSteps } from './job';
import { MIN_RETENTION_DAYS } from './retention';

/**
 * Usage rows and refusals are access logs kept at least 180 days: the archive step moves them to R2 after the hot
 * window (archive/copy.ts); this prune only catches what is older than the legal minimum (docs/decisions/220).
 */
const NODE_DATA_RETENTION_MS = MIN_RETENTION_DAYS * 24 * HOUR_MS;
/** Batch markers only make a retried batch a no-op: 35 days, as before. */
const BATCH_MARKER_RETENTION_MS = 35 * 24 * HOUR_MS;

export const deliveryUpkeepJob: Job = {
  name: 'delivery-upkeep',
  async run(env, now) {
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    return runSteps('delivery-upkeep', {
      receiptsHandedOver: () => handOverLostReceipts(env.DB, env.CUSTOMER_RECORDS, now),
      packagesExpired: () => expireLapsedPackages(env.DB, now),
      pool: () => expirePoolIps(env.DB, now),
      whiteListExpired: () => disableExpiredWhiteList(env.DB, now),
      fixedReleased: () => releaseLapsedFixed(env.DB, now),
      fixedAllocated: () => allocateFixedIps(env.DB, now),
      hoursRolled: () => rollupHours(env.DB, hour - HOUR_MS, hour + HOUR_MS),
      // v2 nodes: exits not heartbeated for 3 intervals leave /extract even when no heartbeat arrives at all.
      staleExits: () => markStaleExits(env.DB, now - STALE_INTERVALS * NODE_HEARTBEAT_MS),
    });
  },
};

export const usageRollupJob: Job = {
  name: 'usage-rollup',
  async run(env, now) {
    const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    // Shanghai midnight of yesterday, so both days are recomputed from whole hours.
    const yesterday = shanghaiMidnight(now) - DAY_MS;
    return runSteps('usage-rollup', {
      hours: () => rollupHours(env.DB, hour - 3 * HOUR_MS, hour + HOUR_MS),
      days: () => rollupDays(env.DB, yesterday, hour + HOUR_MS),
      feedPruned: () => pruneFeed(env.DB, now - FEED_RETENTION_MS),
      nodeDataPruned: () => pruneNodeData(env.DB, now - NODE_DATA_RETENTION_MS, now),
      batchMarkersPruned: () => purgeNodeBatchMarkers(env.DB, now - BATCH_MARKER_RETENTION_MS),
    });
  },
};
