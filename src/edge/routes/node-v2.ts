// /node/v2/*: the proxy-node contract v2 (docs/node-api.md). Every call is HMAC-signed over the path WITH its query
// string (see ./node.ts authenticate).
//   POST /node/v2/heartbeat          register exits, report health (answers the intervals to use)
//   GET  /node/v2/contract?cursor=C&verifier=hs1  leases, users, white lists, proxy account verifiers, limits: full
//                                    snapshot or delta (a pull without verifier=hs1 is an old node: 426)
//   POST /node/v2/usage              bytes/connections per user, exit, client IP (idempotent per batchId)
//   POST /node/v2/refusals           refused connections (idempotent per batchId)
import { Hono } from 'hono';
import { messages } from '../../lib/messages';
import * as wire from '../../lib/node-wire';
import { allocateFixedIps } from '../../server/db/fixed';
import { markNodeV2, markStaleExits } from '../../server/db/node-contract';
import { acceptHeartbeatSeq, upsertNodeIps } from '../../server/db/pool';
import { PROTOCOL_BITS } from '../../server/domain/extract-params';
import {
  NODE_HEARTBEAT_MS,
  NODE_PULL_MS,
  nodeContract,
  storeRefusalBatch,
  STALE_INTERVALS,
  storeUsageBatch,
} from '../../server/domain/node-contract';
import { usageBatchProblem } from '../../server/domain/node-usage';
import { CARRIERS, regionKey } from '../../server/domain/regions';
import { normalizeIp } from '../../server/domain/white-list-ip';
import { authenticate, parseJson } from '../node-request';
import type { EdgeEnv } from '../types';

// The shapes are the node wire protocol's (lib/node-wire.ts, shared with node/); the portal adds its own rules: every
// address canonical (white-list-ip), carriers from its list.
const addressesOk = (ips: string[]) => ips.every((s) => normalizeIp(s) !== null);

const heartbeatSchema = wire.heartbeatSchema.refine((h) =>
  h.exits.every((e) => addressesOk([e.ip]) && (CARRIERS as readonly string[]).includes(e.carrier)),
);
const usageSchema = wire.usageBatchSchema.refine((b) => b.rows.every((r) => addressesOk([r.ip, r.clientIp])));
const refusalSchema = wire.refusalBatchSchema.refine((b) => b.rows.every((r) => addressesOk([r.ip, r.clientIp])));

const bad = { code: 400, msg: messages.invalidParams };
const replayed = { code: 409, msg: messages.nodeHeartbeatReplayed };
const ok = <T>(data: T) => ({ code: 0, msg: '成功', data });
const ip = (s: string) => normalizeIp(s) ?? s;

/** Build the Hono sub-app that serves /node/v2/*. */
export function nodeV2Routes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  app.post('/node/v2/heartbeat', async (c) => {
    const auth = await authenticate(c, true);
    if (auth instanceof Response) return auth;
    const input = parseJson(heartbeatSchema, auth.body);
    if (!input) return c.json(bad, 400);
    if (!(await acceptHeartbeatSeq(c.env.DB, auth.nodeId, input.seq))) return c.json(replayed, 409);
    const now = Date.now();
    const { accepted, ignored } = await upsertNodeIps(
      c.env.DB,
      auth.nodeId,
      input.exits.map((e) => ({
        ip: ip(e.ip),
        port: e.port,
        pool: e.pool,
        protocols: e.protocols.reduce((bits, p) => bits | PROTOCOL_BITS[p], 0),
        province: e.province,
        city: e.city,
        provinceKey: regionKey(e.province),
        cityKey: regionKey(e.city),
        carrier: e.carrier,
        expiresAt: e.expiresAt,
        healthy: e.healthy,
      })),
      now,
    );
    await markNodeV2(c.env.DB, auth.nodeId);
    // Exits of this node silent for 3 intervals leave /extract now (the 5-minute job sweeps every node too).
    await markStaleExits(c.env.DB, now - STALE_INTERVALS * NODE_HEARTBEAT_MS, auth.nodeId);
    // Dedicated exits are allocated to waiting fixed/premium packages as soon as they appear.
    if (accepted > 0 && input.exits.some((e) => e.pool === 30)) await allocateFixedIps(c.env.DB, now);
    return c.json(ok({ accepted, ignored, serverTime: now, heartbeatMs: NODE_HEARTBEAT_MS, pullMs: NODE_PULL_MS }));
  });

  app.get('/node/v2/contract', async (c) => {
    const auth = await authenticate(c, true);
    if (auth instanceof Response) return auth;
    // A node that does not check 'hs1' verifiers would refuse every proxy account: tell it, loudly (decision 200).
    if (c.req.query('verifier') !== wire.CONTRACT_VERIFIER_SCHEME) {
      return c.json({ code: 426, msg: messages.nodeUpgradeRequired }, 426);
    }
    const contract: wire.ContractAnswer = await nodeContract(
      { db: c.env.DB, nodes: c.env.NODE_LEASES },
      auth.nodeId,
      c.req.query('cursor') ?? null,
      Date.now(),
    );
    return c.json(ok(contract), 200, { 'Cache-Control': 'no-store' });
  });

  app.post('/node/v2/usage', async (c) => {
    const auth = await authenticate(c, true);
    if (auth instanceof Response) return auth;
    const input = parseJson(usageSchema, auth.body);
    if (!input) return c.json(bad, 400);
    const problem = usageBatchProblem(input, Date.now());
    if (problem) return c.json({ code: 400, msg: `${messages.nodeUsageOutOfBounds}：${problem}` }, 400);
    const batch = {
      batchId: input.batchId,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      rows: input.rows.map((r) => ({ ...r, ip: ip(r.ip), clientIp: ip(r.clientIp) })),
    };
    const res = await storeUsageBatch({ db: c.env.DB, nodes: c.env.NODE_LEASES }, auth.nodeId, batch, Date.now());
    return c.json(ok(res));
  });

  app.post('/node/v2/refusals', async (c) => {
    const auth = await authenticate(c, true);
    if (auth instanceof Response) return auth;
    const input = parseJson(refusalSchema, auth.body);
    if (!input) return c.json(bad, 400);
    const batch = {
      batchId: input.batchId,
      rows: input.rows.map((r) => ({ ...r, ip: ip(r.ip), clientIp: ip(r.clientIp) })),
    };
    const res = await storeRefusalBatch({ db: c.env.DB, nodes: c.env.NODE_LEASES }, auth.nodeId, batch, Date.now());
    return c.json(ok(res));
  });

  return app;
}
