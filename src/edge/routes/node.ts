// /node/v1/*: the proxy-node API. Every call is HMAC-signed by the node (src/server/domain/node-auth.ts).
//   POST /node/v1/heartbeat  register/refresh the node's exit IPs
//   GET  /node/v1/whitelist  the white list in force (ETag; 304 when unchanged)
//   POST /node/v1/usage      per-user byte counts (idempotent per batchId)
// /node/v2/* (contract v2, docs/node-api.md) is served by ./node-v2.ts; v1 stays for older nodes (decision 044).
import { Hono } from 'hono';
import { z } from 'zod';
import { messages } from '../../lib/messages';
import { acceptHeartbeatSeq, insertUsageReports, liveWhiteList, upsertNodeIps } from '../../server/db/pool';
import { PROTOCOL_BITS } from '../../server/domain/extract-params';
import { sha256Hex } from '../../server/domain/node-auth';
import { usageBatchProblem } from '../../server/domain/node-usage';
import { CARRIERS, regionKey } from '../../server/domain/regions';
import { normalizeIp } from '../../server/domain/white-list-ip';
import { authenticate, deny, parseJson } from '../node-request';
import type { EdgeEnv } from '../types';
import { heartbeatSeq, nodeV2Routes } from './node-v2';

const heartbeatSchema = z.object({
  seq: heartbeatSeq,
  ips: z
    .array(
      z.object({
        ip: z.string().refine((s) => normalizeIp(s) !== null),
        port: z.number().int().min(1).max(65535),
        pool: z.union([z.literal(10), z.literal(30), z.literal(40)]),
        protocols: z.array(z.enum(['http', 'https', 'socks5'])).min(1),
        province: z.string().min(2).max(20),
        city: z.string().min(2).max(20),
        carrier: z.enum(CARRIERS),
        expiresAt: z.number().int().positive(),
        healthy: z.boolean().default(true),
      }),
    )
    .max(1000),
});

const usageSchema = z.object({
  batchId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  reports: z
    .array(
      z.object({
        userId: z.number().int().positive(),
        bytesIn: z.number().int().min(0),
        bytesOut: z.number().int().min(0),
        periodStart: z.number().int().positive(),
        periodEnd: z.number().int().positive(),
      }),
    )
    .max(5000),
});

/** Build the Hono sub-app that serves /node/v1/*. */
export function nodeRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();

  app.post('/node/v1/heartbeat', async (c) => {
    const auth = await authenticate(c);
    if (!auth) return deny(c);
    const input = parseJson(heartbeatSchema, auth.body);
    if (!input) return c.json({ code: 400, msg: messages.invalidParams }, 400);
    if (!(await acceptHeartbeatSeq(c.env.DB, auth.nodeId, input.seq))) {
      return c.json({ code: 409, msg: messages.nodeHeartbeatReplayed }, 409);
    }
    const now = Date.now();
    const { accepted, ignored } = await upsertNodeIps(
      c.env.DB,
      auth.nodeId,
      input.ips.map((i) => ({
        ip: normalizeIp(i.ip) ?? i.ip,
        port: i.port,
        pool: i.pool,
        protocols: i.protocols.reduce((bits, p) => bits | PROTOCOL_BITS[p], 0),
        province: i.province,
        city: i.city,
        provinceKey: regionKey(i.province),
        cityKey: regionKey(i.city),
        carrier: i.carrier,
        expiresAt: i.expiresAt,
        healthy: i.healthy,
      })),
      now,
    );
    // ignored: (ip, port) of another node, or a pool change of an IP held by a live fixed allocation.
    return c.json({ code: 0, msg: '成功', data: { accepted, ignored, serverTime: now } });
  });

  app.get('/node/v1/whitelist', async (c) => {
    const auth = await authenticate(c);
    if (!auth) return deny(c);
    const entries = await liveWhiteList(c.env.DB, Date.now());
    const body = JSON.stringify({ code: 0, msg: '成功', data: { entries } });
    const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
    const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
    if ((c.req.header('if-none-match') ?? '').split(/\s*,\s*/).includes(etag)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(body, {
      status: 200,
      headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
    });
  });

  app.post('/node/v1/usage', async (c) => {
    const auth = await authenticate(c);
    if (!auth) return deny(c);
    const input = parseJson(usageSchema, auth.body);
    if (!input) return c.json({ code: 400, msg: messages.invalidParams }, 400);
    // The same bounds as v2, per report (v1 reports name no exit, so each is its own period of one "exit").
    const now = Date.now();
    for (const r of input.reports) {
      const problem = usageBatchProblem({ ...r, rows: [{ ...r, ip: 'v1', port: 0, connections: 0 }] }, now);
      if (problem) return c.json({ code: 400, msg: `${messages.nodeUsageOutOfBounds}：${problem}` }, 400);
    }
    const stored = await insertUsageReports(c.env.DB, auth.nodeId, input.batchId, input.reports, Date.now());
    return c.json({ code: 0, msg: '成功', data: { stored } });
  });

  app.route('/', nodeV2Routes());
  app.all('/node/*', (c) => c.json({ code: 404, msg: messages.notFound }, 404));
  return app;
}
