import { beforeEach, describe, expect, it } from 'vitest';
import { resetDb } from '../helpers/api';
import {
  addPool,
  allowIp,
  exitFacts,
  extractCall,
  makePackage,
  makeUser,
  nodeCall,
  poolExits,
} from '../helpers/delivery';

beforeEach(async () => {
  await resetDb();
  await addPool([]);
});

const heartbeat = JSON.stringify({
  exits: [
    {
      ip: '198.51.100.20',
      port: 8000,
      pool: 10,
      protocols: ['http', 'socks5'],
      province: '浙江省',
      city: '杭州市',
      carrier: '联通',
      expiresAt: Date.now() + 600_000,
    },
  ],
});

describe('node API authentication', () => {
  it('refuses a bad HMAC, a wrong secret, an unknown node and a stale timestamp with 401', async () => {
    const bad = await nodeCall('POST', '/node/v2/heartbeat', heartbeat, {
      headers: { 'x-node-signature': 'f'.repeat(64) },
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ code: 401, msg: '节点签名无效' });
    expect((await nodeCall('POST', '/node/v2/heartbeat', heartbeat, { secret: 'wrong-secret' })).status).toBe(401);
    expect((await nodeCall('POST', '/node/v2/heartbeat', heartbeat, { nodeId: 99 })).status).toBe(401);
    expect(
      (await nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { timestamp: Date.now() - 10 * 60_000 })).status,
    ).toBe(401);
    expect(await poolExits()).toEqual([]);
  });

  it('refuses a body changed after signing', async () => {
    const ts = String(Date.now());
    const { signNodeRequest } = await import('../../src/server/domain/node-auth');
    const sig = await signNodeRequest('test-node-secret-0123456789abcdef', {
      method: 'POST',
      path: '/node/v2/usage',
      timestamp: ts,
      body: '{"batchId":"a","reports":[]}',
    });
    const res = await nodeCall('POST', '/node/v2/usage', '{"batchId":"b","reports":[]}', {
      headers: { 'x-node-signature': sig, 'x-node-timestamp': ts },
    });
    expect(res.status).toBe(401);
  });
});

describe('node API body limit', () => {
  it('answers a body over the limit 413 (the node then splits its batch), stores nothing of it', async () => {
    const { MAX_NODE_BODY_BYTES } = await import('../../src/lib/node-wire');
    const row = {
      userId: 1,
      ip: '198.51.100.20',
      port: 8000,
      clientIp: '192.0.2.9',
      bytesIn: 1,
      bytesOut: 1,
      connections: 1,
    };
    const rows = Array.from({ length: Math.ceil(MAX_NODE_BODY_BYTES / JSON.stringify(row).length) + 10 }, () => row);
    const body = JSON.stringify({ batchId: 'big-1', periodStart: Date.now() - 10_000, periodEnd: Date.now(), rows });
    const res = await nodeCall('POST', '/node/v2/usage', body);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 413, msg: '请求内容过大' });
    // Ten of the rows, under the limit: read and answered by the route itself.
    const small = await nodeCall(
      'POST',
      '/node/v2/usage',
      JSON.stringify({ ...JSON.parse(body), rows: rows.slice(0, 10) }),
    );
    expect(small.status).not.toBe(413);
  });
});

describe('node API calls', () => {
  it('registers IPs by heartbeat and they become extractable', async () => {
    const res = await nodeCall('POST', '/node/v2/heartbeat', heartbeat);
    expect(res.status).toBe(200);
    expect((await exitFacts('198.51.100.20'))?.protocols).toBe(5);
    const u = await makeUser();
    await makePackage(u.id);
    await allowIp(u.id, '192.0.2.50');
    const got = await extractCall({ key: u.key, region: '杭州', protocol: 'socks5' });
    expect(got.text).toBe('198.51.100.20:8000');
  });

  it('answers every /node/v1 path 410 with the way to v2, and serves no white list (decision 200)', async () => {
    const u = await makeUser();
    await makePackage(u.id);
    await allowIp(u.id, '192.0.2.1');
    for (const [method, path] of [
      ['GET', '/node/v1/whitelist'],
      ['POST', '/node/v1/heartbeat'],
      ['POST', '/node/v1/usage'],
    ] as const) {
      const res = await nodeCall(method, path, method === 'POST' ? '{}' : '');
      expect(res.status, path).toBe(410);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        code: 410,
        msg: '节点接口 v1 已停用：请升级节点并使用 /node/v2（见 docs/node-api.md）',
      });
      expect(text).not.toContain('192.0.2.1');
    }
  });
});
