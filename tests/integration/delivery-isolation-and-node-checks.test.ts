// Proxy delivery isolation: a node cannot take over another node's exit IPs, suspended accounts lose
// extraction and proxy access, dedicated IPs come only from the paid region, reserved time packages are not charged,
// and the node API checks its headers before reading a byte-limited body.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { allocateFixedIps } from '../../src/server/db/fixed';
import { signNodeRequest } from '../../src/server/domain/node-auth';
import { setAccountStatus, userIdOf } from '../helpers/accounts';
import { BASE, callApi, loginBySms, resetDb } from '../helpers/api';
import { seedCatalogue } from '../helpers/commerce';
import {
  addNode,
  addPool,
  allocationCount,
  allowIp,
  exitFacts,
  extractCall,
  leaseCount,
  liveAllocations,
  makePackage,
  makeUser,
  NODE_SECRET,
  nodeCall,
  remainingCount,
  simplePool,
} from '../helpers/delivery';
import {
  addRegionTerms,
  mealRegionId,
  packageFacts,
  releaseMergeReservations,
  reserveForMerge,
} from '../helpers/money';
import { ACCOUNT_STATUS } from '../../src/lib/console-states';

const LONG = 60 * 86_400; // dedicated IPs outlive the packages they are allocated to
const SECRET_B = 'test-node-secret-b-0123456789abcdef';

beforeEach(async () => {
  await resetDb();
  await addPool([]);
  await addNode(2, 'n2', SECRET_B);
});

const beat = (ips: Record<string, unknown>[]) =>
  JSON.stringify({
    exits: ips.map((i) => ({
      port: 40000,
      pool: 10,
      protocols: ['http'],
      province: '浙江省',
      city: '杭州市',
      carrier: '联通',
      expiresAt: Date.now() + 600_000,
      ...i,
    })),
  });

describe('heartbeats cannot take over other nodes’ IPs', () => {
  it('ignores node B heartbeating node A’s (ip, port), even concurrently, and reports accepted vs ignored', async () => {
    await simplePool(1); // 203.0.113.1:40000 belongs to node 1 (广东省深圳市, pool 10)
    const before = await exitFacts('203.0.113.1');
    const hostile = beat([
      { ip: '203.0.113.1', pool: 40, province: '北京市', city: '北京市', healthy: false },
      { ip: '198.51.100.77' },
    ]);
    const [b1, b2] = await Promise.all([
      nodeCall('POST', '/node/v2/heartbeat', hostile, { nodeId: 2, secret: SECRET_B }),
      nodeCall('POST', '/node/v2/heartbeat', hostile, { nodeId: 2, secret: SECRET_B }),
    ]);
    expect(b1.status).toBe(200);
    expect(b2.status).toBe(200);
    // Node A's IP is untouched: owner, pool, region, health and expiry.
    expect(await exitFacts('203.0.113.1')).toEqual(before);
    expect((await exitFacts('198.51.100.77'))?.nodeId).toBe(2);
    const answers = [await b1.json(), await b2.json()] as { data: { accepted: number; ignored: number } }[];
    // B's own new IP is accepted (inserted, then refreshed); A's is ignored both times.
    for (const a of answers) expect(a.data).toMatchObject({ accepted: 1, ignored: 1 });
    // The owner still refreshes its own IP.
    const own = await nodeCall('POST', '/node/v2/heartbeat', beat([{ ip: '203.0.113.1', healthy: false }]));
    expect(await own.json()).toMatchObject({ data: { accepted: 1, ignored: 0 } });
    expect(await exitFacts('203.0.113.1')).toMatchObject({ nodeId: 1, healthy: false, province: '浙江省' });
  });

  it('ignores a pool change of an IP held by a live fixed allocation', async () => {
    await addPool([{ ip: '203.0.113.30', pool: 30, ttlSeconds: LONG }]);
    const u = await makeUser();
    const pkg = await makePackage(u.id, { type: 30, billing: 2, ipCount: 1 });
    expect(await allocateFixedIps(env.DB, Date.now())).toBe(1);
    const res = await nodeCall('POST', '/node/v2/heartbeat', beat([{ ip: '203.0.113.30', pool: 10 }]));
    expect(await res.json()).toMatchObject({ data: { accepted: 0, ignored: 1 } });
    expect((await exitFacts('203.0.113.30'))?.pool).toBe(30);
    // Same pool: refreshed as usual.
    const same = await nodeCall('POST', '/node/v2/heartbeat', beat([{ ip: '203.0.113.30', pool: 30 }]));
    expect(await same.json()).toMatchObject({ data: { accepted: 1, ignored: 0 } });
    expect(await allocationCount({ packageId: pkg })).toBe(1);
  });
});

describe('suspended accounts lose extraction and proxy access', () => {
  it('answers 1001 for the key of a disabled account', async () => {
    await simplePool(3);
    const u = await makeUser();
    await makePackage(u.id);
    await allowIp(u.id, '192.0.2.50');
    expect((await extractCall({ key: u.key })).status).toBe(200);
    await setAccountStatus(ACCOUNT_STATUS.disabled, u.id);
    const res = await extractCall({ key: u.key, format: 'json' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toMatchObject({ code: 1001, msg: '密钥无效' });
    expect(await remainingCount(u.id)).toBe(99);
  });
});

describe('dedicated IPs come only from the paid region', () => {
  async function orderedFixed(userId: number, regionId: number, ipCount: number): Promise<number> {
    const pkg = await makePackage(userId, { type: 30, billing: 2, ipCount });
    await addRegionTerms(pkg, 'D1', regionId);
    return pkg;
  }

  it('allocates matching IPs only, leaves the rest 分配中, and never over-allocates under concurrent runs', async () => {
    await seedCatalogue();
    await addPool([
      { ip: '203.0.113.50', pool: 30, ttlSeconds: LONG, province: '北京市', city: '北京市' },
      { ip: '203.0.113.51', pool: 30, ttlSeconds: LONG, province: '广东省', city: '深圳市' },
      { ip: '203.0.113.52', pool: 30, ttlSeconds: LONG, province: '北京市', city: '北京市' },
    ]);
    const phone = '13800003001';
    const cookie = await loginBySms(phone);
    const uid = await userIdOf(phone);
    const shenzhen = await orderedFixed(uid, await mealRegionId('深圳'), 2);
    const shenyang = await orderedFixed(uid, await mealRegionId('沈阳'), 1);
    const runs = await Promise.all([allocateFixedIps(env.DB, Date.now()), allocateFixedIps(env.DB, Date.now())]);
    expect(runs[0] + runs[1]).toBe(1);
    const held = await liveAllocations();
    expect(held.map((a) => ({ packageId: a.packageId, city: a.city }))).toEqual([
      { packageId: shenzhen, city: '深圳市' },
    ]);
    const list = await callApi('Proxy.GetProxys', { type: 30 }, { cookie });
    const byId = new Map(list.body.P?.list.map((p) => [p.id, p]));
    expect(byId.get(shenzhen)).toMatchObject({ pendingIps: 1, stateText: '分配中' });
    expect(byId.get(shenyang)).toMatchObject({ pendingIps: 1, stateText: '分配中' });
    // A free IP of the region arriving later is allocated on the next run.
    await addPool([{ ip: '203.0.113.53', pool: 30, ttlSeconds: LONG, province: '辽宁省', city: '沈阳市' }]);
    expect(await allocateFixedIps(env.DB, Date.now())).toBe(1);
    expect(await allocationCount({ packageId: shenyang })).toBe(1);
  });
});

describe('reserved time packages (delivery side)', () => {
  it('does not charge a time package reserved by an unpaid merge order', async () => {
    await simplePool(3);
    const u = await makeUser();
    const pkg = await makePackage(u.id, { billing: 2, dailyLimit: 100 });
    await allowIp(u.id, '192.0.2.50');
    await reserveForMerge(pkg, 'D1', 10);
    expect((await extractCall({ key: u.key })).status).toBe(403);
    // named explicitly, it is not charged either: the charge's own condition excludes a reserved package
    expect((await extractCall({ key: u.key, package: pkg })).status).toBe(403);
    expect((await packageFacts(pkg))?.usedToday).toBe(0);
    expect(await leaseCount({ packageId: pkg })).toBe(0);
    await releaseMergeReservations();
    expect((await extractCall({ key: u.key })).status).toBe(200);
  });
});

describe('node API header checks come before a byte-limited body read', () => {
  it('refuses a signed body over 512 KiB in bytes even when it has fewer characters', async () => {
    const ts = String(Date.now());
    const body = `{"exits":[],"pad":"${'节'.repeat(200_000)}"}`; // ~600 KB in UTF-8, ~200k characters
    const signature = await signNodeRequest(NODE_SECRET, {
      method: 'POST',
      path: '/node/v2/heartbeat',
      timestamp: ts,
      body,
    });
    const res = await SELF.fetch(`${BASE}/node/v2/heartbeat`, {
      method: 'POST',
      headers: { 'x-node-id': '1', 'x-node-timestamp': ts, 'x-node-signature': signature },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(body));
          controller.close();
        },
      }),
    });
    // Counted in bytes: 413 请求内容过大 (the node then splits its batch), nothing read of the node.
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 413, msg: '请求内容过大' });
  });

  it('refuses a stale or malformed call without reading its body', async () => {
    // A body that never ends: reading it before the header checks would hang the call.
    const unreadable = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"ips":['));
        },
      });
    const stale = await SELF.fetch(`${BASE}/node/v2/heartbeat`, {
      method: 'POST',
      headers: {
        'x-node-id': '1',
        'x-node-timestamp': String(Date.now() - 10 * 60_000),
        'x-node-signature': 'a'.repeat(64),
      },
      body: unreadable(),
    });
    expect(stale.status).toBe(401);
    const noId = await SELF.fetch(`${BASE}/node/v2/usage`, {
      method: 'POST',
      headers: { 'x-node-timestamp': String(Date.now()), 'x-node-signature': 'a'.repeat(64) },
      body: unreadable(),
    });
    expect(noId.status).toBe(401);
  });
});
