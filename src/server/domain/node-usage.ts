// What a node's usage report may claim (docs/decisions/198): bytes a link can carry in the reported period, per row
// and per exit, in a period of bounded length that has ended; rows for users who held no lease on that exit in that
// period are not stored. A batch over the bounds is refused whole (400, nothing stored) with the reason.
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/time';

/** The most an exit carries per direction: 10 Gbit/s, in bytes per second. */
export const EXIT_LINK_BYTES_PER_SECOND = 1_250_000_000;
/** The most new connections an exit accepts per second (for the connection count of a period). */
export const EXIT_CONNECTIONS_PER_SECOND = 20_000;
/** A report covers at most one hour (nodes cut every minute or so). */
export const MAX_USAGE_PERIOD_MS = HOUR_MS;
/** A period may end at most this far in the future (the node's clock may run ahead a little). */
export const USAGE_CLOCK_SKEW_MS = 5 * MINUTE_MS;
/**
 * How long a node object remembers a usage batch id after its D1 step (decision 249): a node re-sends a batch within
 * minutes. D1's batch markers (`node_batches`, jobs/delivery.ts BATCH_MARKER_RETENTION_MS: weeks) must outlive it, so
 * a batch the object still knows is known to D1 too and its hours are never added twice.
 */
export const USAGE_BATCH_MEMORY_MS = DAY_MS;
/** Usage of a lease is accepted this long after it ended (the node's grace for open connections, plus a margin). */
export const USAGE_LEASE_GRACE_MS = 5 * MINUTE_MS;

export interface UsageClaim {
  ip: string;
  port: number;
  bytesIn: number;
  bytesOut: number;
  connections: number;
}

/** Why a usage batch is refused whole (a zh-CN sentence naming the bound), or null when it is within bounds. */
export function usageBatchProblem(
  b: { periodStart: number; periodEnd: number; rows: UsageClaim[] },
  now: number,
): string | null {
  const length = b.periodEnd - b.periodStart;
  if (length < 0 || length > MAX_USAGE_PERIOD_MS) return `统计周期须在0到${MAX_USAGE_PERIOD_MS / MINUTE_MS}分钟之间`;
  if (b.periodEnd > now + USAGE_CLOCK_SKEW_MS) return '统计周期的结束时间晚于当前时间';
  const seconds = Math.max(length, 1000) / 1000;
  const maxBytes = Math.floor(EXIT_LINK_BYTES_PER_SECOND * seconds);
  const maxConnections = Math.floor(EXIT_CONNECTIONS_PER_SECOND * seconds);
  const perExit = new Map<string, { bytesIn: number; bytesOut: number; connections: number }>();
  for (const r of b.rows) {
    const key = `${r.ip}:${r.port}`;
    const sum = perExit.get(key) ?? { bytesIn: 0, bytesOut: 0, connections: 0 };
    sum.bytesIn += r.bytesIn;
    sum.bytesOut += r.bytesOut;
    sum.connections += r.connections;
    perExit.set(key, sum);
    if (sum.bytesIn > maxBytes || sum.bytesOut > maxBytes) {
      return `出口 ${key} 在该周期内的流量超过线路上限（每个方向最多 ${maxBytes} 字节）`;
    }
    if (sum.connections > maxConnections) return `出口 ${key} 在该周期内的连接数超过上限（最多 ${maxConnections} 个）`;
  }
  return null;
}
