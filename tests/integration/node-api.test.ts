import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { runScheduledJobs } from '../../src/server/jobs';
import { callApi, loginBySms } from '../helpers/api';
import { addPool, allowIp, extractCall, makePackage, makeUser, nodeCall, resetAll, scalar } from '../helpers/delivery';

beforeEach(async () => {
  await resetAll();
  await addPool([]);
});

const heartbeat = JSON.stringify({
  ips: [
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

describe('/node/v1 authentication', () => {
  it('refuses a bad HMAC, a wrong secret, an unknown node and a stale timestamp with 401', async () => {
    const bad = await nodeCall('POST', '/node/v1/heartbeat', heartbeat, {
      headers: { 'x-node-signature': 'f'.repeat(64) },
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ code: 401, msg: '节点签名无效' });
    expect((await nodeCall('POST', '/node/v1/heartbeat', heartbeat, { secret: 'wrong-secret' })).status).toBe(401);
    expect((await nodeCall('POST', '/node/v1/heartbeat', heartbeat, { nodeId: 99 })).status).toBe(401);
    expect((await nodeCall('GET', '/node/v1/whitelist', '', { timestamp: Date.now() - 10 * 60_000 })).status).toBe(401);
    expect(await scalar('SELECT count(*) AS n FROM proxy_ips')).toBe(0);
  });

  it('refuses a body changed after signing', async () => {
    const ts = String(Date.now());
    const { signNodeRequest } = await import('../../src/server/domain/node-auth');
    const sig = await signNodeRequest('test-node-secret-0123456789abcdef', {
      method: 'POST',
      path: '/node/v1/usage',
      timestamp: ts,
      body: '{"batchId":"a","reports":[]}',
    });
    const res = await nodeCall('POST', '/node/v1/usage', '{"batchId":"b","reports":[]}', {
      headers: { 'x-node-signature': sig, 'x-node-timestamp': ts },
    });
    expect(res.status).toBe(401);
  });
});

describe('/node/v1 calls', () => {
  it('registers IPs by heartbeat and they become extractable', async () => {
    const res = await nodeCall('POST', '/node/v1/heartbeat', heartbeat);
    expect(res.status).toBe(200);
    expect(await scalar("SELECT protocols AS n FROM proxy_ips WHERE ip = '198.51.100.20'")).toBe(5);
    const u = await makeUser();
    await makePackage(u.id);
    await allowIp(u.id, '192.0.2.50');
    const got = await extractCall({ key: u.key, region: '杭州', protocol: 'socks5' });
    expect(got.text).toBe('198.51.100.20:8000');
  });

  it('serves the white list with an ETag, 304 when unchanged, new content after a change', async () => {
    const u = await makeUser();
    await makePackage(u.id); // only accounts with a live package (or fixed IP) are served
    await allowIp(u.id, '192.0.2.1');
    await allowIp(u.id, '192.0.2.2', { enabled: false });
    const first = await nodeCall('GET', '/node/v1/whitelist');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const body = (await first.json()) as { data: { entries: { userId: number; ip: string }[] } };
    expect(body.data.entries).toEqual([{ userId: u.id, ip: '192.0.2.1', expiresAt: 0 }]);
    const again = await nodeCall('GET', '/node/v1/whitelist', '', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    await env.DB.prepare("UPDATE white_list SET enabled = 1 WHERE ip = '192.0.2.2'").run();
    const changed = await nodeCall('GET', '/node/v1/whitelist', '', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('stores usage once per batch and rolls it up into bandwidth', async () => {
    const cookie = await loginBySms('13800001234');
    const userId = await scalar("SELECT id AS n FROM users WHERE phone = '13800001234'");
    const now = Date.now();
    const usage = JSON.stringify({
      batchId: 'b-1',
      reports: [{ userId, bytesIn: 1000, bytesOut: 5000, periodStart: now - 60_000, periodEnd: now }],
    });
    expect(await (await nodeCall('POST', '/node/v1/usage', usage)).json()).toMatchObject({ data: { stored: 1 } });
    expect(await (await nodeCall('POST', '/node/v1/usage', usage)).json()).toMatchObject({ data: { stored: 0 } });
    await runScheduledJobs('*/5 * * * *', env as never);
    await runScheduledJobs('7 * * * *', env as never);
    const hour = await callApi<{ total: { bytesIn: number; bytesOut: number } }>(
      'Statistics.Bandwidth',
      { range: '24h' },
      { cookie },
    );
    expect(hour.body.P?.total).toEqual({ bytesIn: 1000, bytesOut: 5000 });
    const week = await callApi<{ total: { bytesIn: number } }>('Statistics.Bandwidth', { range: '7d' }, { cookie });
    expect(week.body.P?.total.bytesIn).toBe(1000);
  });
});
