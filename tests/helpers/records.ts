// Fixtures for the records pages over three tiers (decision 246): a customer who extracts through /extract and whose
// calls and leases are then kept by the customer's object, and rows D1 holds from before the object kept them.
import { env } from 'cloudflare:test';
import { insertExtractLog } from '../../src/server/db/extract';
import type { Bindings } from '../../src/server/env';
import { archiveJob, retentionJob } from '../../src/server/jobs/retention';
import { runScheduledJobs } from '../../src/server/jobs';
import { callApi, loginBySms } from './api';
import { allowIp, extractCall, makePackage, makeUser, nodeCall } from './delivery';
import { untilKept } from './receipts';

/** The caller address every fixture extracts from (white-listed for the customer). */
export const CALLER = '192.0.2.50';

/** A signed-in customer with an extraction key, a package of `remaining` IPs and CALLER on the white list. */
export async function extractingCustomer(
  opts: { remaining?: number; type?: 10 | 40 } = {},
): Promise<{ id: number; key: string; phone: string; cookie: string }> {
  const u = await makeUser({ rateLimit: 100 });
  await makePackage(u.id, { remaining: opts.remaining ?? 100, type: opts.type ?? 10 });
  await allowIp(u.id, CALLER);
  return { id: u.id, key: u.key, phone: u.phone, cookie: await loginBySms(u.phone) };
}

/** The `ip:port` lines of a plain-text answer. */
export const linesOf = (text: string) => (text ? text.split('\r\n') : []);

/**
 * Calls /extract once per query (a few ms apart, so each call has its own time) and waits until the customer's object
 * has kept them all; returns each answer's status and `ip:port` lines, in call order.
 */
export async function extractAndKeep(
  c: { id: number; key: string },
  queries: Record<string, string | number>[],
): Promise<{ status: number; lines: string[] }[]> {
  const out: { status: number; lines: string[] }[] = [];
  for (const q of queries) {
    const r = await extractCall({ key: c.key, ...q }, CALLER);
    out.push({ status: r.status, lines: r.status === 200 ? linesOf(r.text) : [] });
    await new Promise((done) => setTimeout(done, 5));
  }
  const kept = await untilKept(c.id, queries.length);
  if (kept.logs < queries.length) throw new Error(`the customer's object kept ${kept.logs} of ${queries.length} calls`);
  return out;
}

/** A call D1's log holds from before the customer's object kept the calls (code 0 unless told). */
export const legacyCall = (userId: number, at: number, returned: number, code = 0) =>
  insertExtractLog(env.DB, {
    userId,
    packageId: null,
    productType: 10,
    clientIp: CALLER,
    requested: Math.max(returned, 1),
    returned,
    code,
    query: `num=${Math.max(returned, 1)}`,
    now: at,
  });

/** Run the hourly archive job and then the daily retention job at `now` (the objects' and D1's history past the hot window leaves for the archive). */
export async function archiveAt(now: number): Promise<Record<string, unknown>> {
  const archive = (await archiveJob.run(env as unknown as Bindings, now)) as Record<string, unknown>;
  const retention = (await retentionJob.run(env as unknown as Bindings, now)) as Record<string, unknown>;
  return { ...archive, ...retention };
}

/** Node 1 reports one batch of usage rows ending at `periodEnd`; the portal's answer (status and data). */
export async function reportUsage(batchId: string, rows: object[], periodEnd = Date.now()) {
  const body = JSON.stringify({ batchId, periodStart: periodEnd - 10_000, periodEnd, rows });
  const res = await nodeCall('POST', '/node/v2/usage', body);
  const data = res.status === 200 ? ((await res.json()) as { data: UsageAnswer }).data : null;
  return { status: res.status, data };
}

/** What the portal answers a usage batch. */
export interface UsageAnswer {
  stored: number;
  duplicate: boolean;
  refused: number;
}

/** The customer's bytes on the bandwidth page (24 h), after the roll-up jobs ran. */
export async function bandwidthOf(cookie: string): Promise<{ bytesIn: number; bytesOut: number }> {
  await runScheduledJobs('*/5 * * * *', env as never);
  await runScheduledJobs('7 * * * *', env as never);
  return (
    (await callApi('Statistics.Bandwidth', { range: '24h' }, { cookie })).body.P?.total ?? { bytesIn: -1, bytesOut: -1 }
  );
}
