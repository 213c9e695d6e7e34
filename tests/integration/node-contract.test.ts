// /node/v2 (docs/node-api.md): signature over path + query, the contract as full snapshot and deltas from the change
// feed, exits of other nodes, idempotent usage and refusal batches, health, bad bodies.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { signNodeRequest } from '../../src/server/domain/node-auth';
import { NODE_USER_LIMITS } from '../../src/server/domain/node-contract';
import { usageOfWindows } from '../../src/server/db/archive-rows';
import { packagesStillLive } from '../../src/server/db/node-contract';
import { runScheduledJobs } from '../../src/server/jobs';
import { ageProxyCredentials, setAccountStatus, userIdOf } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import {
  addExit,
  addLease,
  addNode,
  addPool,
  allocationCount,
  allowIp,
  announceLease,
  cutLeaseShort,
  endPackageAt,
  exitFacts,
  exitId,
  extractCall,
  feedCount,
  forgetNodeLeases,
  handOverReceiptsToNodes,
  keepNodeLeases,
  nodeLease,
  nodeUsageRows,
  queryPlan,
  recordingDb,
  runNodeLeasesAlarm,
  addUsage,
  historyCounts,
  makePackage,
  makeUser,
  NODE_SECRET,
  nodeCall,
  setExitLastSeen,
  usageRows,
} from '../helpers/delivery';
import { setPackageState } from '../helpers/money';
import { operatorLogin } from '../helpers/operators';
import { DAY_MS, shanghaiDateTime } from '../../src/lib/time';
import { ACCOUNT_STATUS } from '../../src/lib/console-states';
import { PACKAGE_STATE } from '../../src/lib/package-states';

const OTHER_SECRET = 'other-node-secret-0123456789abcdef';

interface Lease {
  id: string;
  ip: string;
  port: number;
  userId: number;
  packageId: number;
  productType: number;
  exclusive: boolean;
  startsAt: number;
  expiresAt: number;
}
interface User {
  userId: number;
  active: boolean;
  whiteList: { ip: string; expiresAt: number }[];
  username: string;
  passwordVerifier: string;
  limits: { maxConcurrent: number; newPerSecond: number };
}
interface Contract {
  cursor: string;
  full: boolean;
  more: boolean;
  leases: Lease[];
  endedLeases: string[];
  users: User[];
  removedUsers: number[];
}

beforeEach(async () => {
  await resetDb();
  await forgetNodeLeases(1, 2);
  await addPool([]);
  await addNode(2, 'n2', OTHER_SECRET);
});

async function contract(cursor?: string, nodeId = 1): Promise<Contract> {
  const path = `/node/v2/contract?${cursor === undefined ? '' : `cursor=${cursor}&`}verifier=hs1`;
  const res = await nodeCall('GET', path, '', nodeId === 2 ? { nodeId, secret: OTHER_SECRET } : {});
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Contract }).data;
}

/** What a node does with a verifier: HMAC-SHA256 under its salt of username ':' password, compared. */
async function verifies(verifier: string, username: string, password: string): Promise<boolean> {
  const m = /^hs1\$([0-9a-f]{32})\$([0-9a-f]{64})$/.exec(verifier);
  if (!m) return false;
  const salt = Uint8Array.from((m[1] as string).match(/../g) ?? [], (h) => Number.parseInt(h, 16));
  const key = await crypto.subtle.importKey('raw', salt, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${username}:${password}`)),
  );
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('') === m[2];
}

const sha256 = async (s: string) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

/** An exit on a node (port 18000 unless told); returns its id. */
const exit = (ip: string, o: { node?: number; pool?: 10 | 30 | 40; port?: number } = {}): Promise<number> =>
  addExit({ ip, node: o.node ?? 1, pool: o.pool ?? 10, port: o.port ?? 18000 });

/** An extraction lease of a user on an exit. */
const lease = (userId: number, packageId: number, ipId: number, from: number, to: number): Promise<number> =>
  addLease({ userId, packageId, ipId, from, to });

const heartbeat = (exits: object[]) => JSON.stringify({ version: 'test/1', exits });
const exitSpec = (ip: string, extra: object = {}) => ({
  ip,
  port: 18000,
  pool: 10,
  protocols: ['http', 'https', 'socks5'],
  province: '广东省',
  city: '深圳市',
  carrier: '电信',
  expiresAt: Date.now() + 3_600_000,
  healthy: true,
  ...extra,
});

describe('/node/v2 signature', () => {
  it('signs the path with its query string: a signature over the bare path is refused', async () => {
    const ts = String(Date.now());
    const bare = await signNodeRequest(NODE_SECRET, {
      method: 'GET',
      path: '/node/v2/contract',
      timestamp: ts,
      body: '',
    });
    const res = await nodeCall('GET', '/node/v2/contract?cursor=c0', '', {
      headers: { 'x-node-signature': bare, 'x-node-timestamp': ts },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, msg: '节点签名无效' });
    expect((await nodeCall('GET', '/node/v2/contract?cursor=c0&verifier=hs1')).status).toBe(200);
    // A node that does not declare the hs1 verifiers (older than decision 200) is told to upgrade, not served.
    const old = await nodeCall('GET', '/node/v2/contract?cursor=c0');
    expect(old.status).toBe(426);
    expect(((await old.json()) as { msg: string }).msg).toContain('节点版本过旧');
    // Another node's secret cannot sign for node 1.
    expect((await nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { secret: OTHER_SECRET })).status).toBe(401);
  });
});

describe('/node/v2/contract', () => {
  it('serves a full snapshot, then deltas: extraction, white list, password, suspension, refund', async () => {
    await exit('127.0.0.2');
    const cookie = await loginBySms('13800002222');
    // The key is shown once, by the call that creates it (the database holds only its hash).
    const tool = await callApi('Extract.GetMealAndRegion', { type: 10 }, { cookie });
    const key = tool.body.P?.apiKey;
    expect(key).toMatch(/^[a-z0-9]{32}$/);
    const account = await callApi('Proxy.GetProxyAccount', {}, { cookie });
    const { uid, username, password } = account.body.P ?? { uid: 0, username: '', password: '' };
    const pkg = await makePackage(uid);
    const add = (ip: string) => callApi('ProxyWhiteList.AddProxyWhiteIp', { ip }, { cookie });
    expect((await add('192.0.2.50')).status).toBe(200);
    const first = await contract();
    expect(first).toMatchObject({ full: true, leases: [], users: [] });
    expect(first.cursor).toMatch(/^c\d+\.\d+\.\d+$/);

    const got = await extractCall({ key: key ?? '', format: 'json' });
    expect(got.status).toBe(200);
    await handOverReceiptsToNodes();
    const d1 = await contract(first.cursor);
    expect(d1.full).toBe(false);
    expect(d1.leases).toHaveLength(1);
    const l = d1.leases[0] as Lease;
    expect(l).toMatchObject({ ip: '127.0.0.2', port: 18000, userId: uid, packageId: pkg, exclusive: false });
    expect(l.id).toMatch(/^r\d+\.0$/);
    expect(l.expiresAt - l.startsAt).toBe(5 * 60_000);
    expect(username).toMatch(/^u[0-9a-z]{9}$/);
    expect(d1.users).toEqual([
      {
        userId: uid,
        active: true,
        whiteList: [{ ip: '192.0.2.50', expiresAt: 0 }],
        username,
        passwordVerifier: expect.stringMatching(/^hs1\$[0-9a-f]{32}\$[0-9a-f]{64}$/),
        limits: NODE_USER_LIMITS[10],
      },
    ]);

    // The node gets a salted verifier that checks the password, never the password or its plain digest.
    expect(await verifies(d1.users[0]?.passwordVerifier ?? '', username, password)).toBe(true);
    expect(await verifies(d1.users[0]?.passwordVerifier ?? '', username, `${password}x`)).toBe(false);
    expect(JSON.stringify(d1)).not.toContain(password);
    expect(JSON.stringify(d1)).not.toContain(await sha256(`${username}:${password}`));

    const quiet = await contract(d1.cursor);
    expect(quiet).toMatchObject({ full: false, leases: [], endedLeases: [], users: [], removedUsers: [] });
    expect(quiet.cursor.split('.')[0]).toBe(d1.cursor.split('.')[0]);

    await add('192.0.2.51');
    const d2 = await contract(quiet.cursor);
    expect(d2.leases).toEqual([]);
    expect(d2.users[0]?.whiteList.map((w) => w.ip)).toEqual(['192.0.2.50', '192.0.2.51']);

    await ageProxyCredentials(uid);
    const rotated = await callApi('Proxy.ResetProxyPassword', {}, { cookie });
    const d3 = await contract(d2.cursor);
    expect(await verifies(d3.users[0]?.passwordVerifier ?? '', username, rotated.body.P?.password ?? '')).toBe(true);
    expect(await verifies(d3.users[0]?.passwordVerifier ?? '', username, password)).toBe(false);

    // Suspension (the console writes the feed row in the same batch as the status change).
    await setAccountStatus(ACCOUNT_STATUS.disabled, uid, { announce: true });
    const d4 = await contract(d3.cursor);
    expect(d4.users).toMatchObject([{ userId: uid, active: false }]);

    // Refund: the package is disabled, its live lease ends early and the user is dropped.
    await setPackageState(pkg, PACKAGE_STATE.disabled);
    const d5 = await contract(d4.cursor);
    expect(d5.endedLeases).toEqual([l.id]);
    expect(d5.leases).toEqual([]);
    expect(d5.removedUsers).toEqual([uid]);
    expect((await contract()).leases).toEqual([]);
  });

  it('ends the leases of a package that reaches its end, without any write', async () => {
    const ipId = await exit('127.0.0.2');
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    const now = Date.now();
    const leaseId = await lease(u.id, pkg, ipId, now, now + 600_000);
    const c0 = await contract();
    expect(c0.leases.map((x) => x.id)).toEqual([`a${leaseId}`]);
    await endPackageAt(pkg, now - 1);
    const d = await contract(c0.cursor);
    expect(d.endedLeases).toEqual([`a${leaseId}`]);
  });

  it('ends a lease cut short (its end moved into the past and announced in the feed)', async () => {
    const ipId = await exit('127.0.0.2');
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    const now = Date.now();
    const leaseId = await lease(u.id, pkg, ipId, now, now + 600_000);
    await announceLease(leaseId); // as an extraction announces its lease
    const c0 = await contract();
    expect(c0.leases.map((x) => x.id)).toEqual([`a${leaseId}`]);
    await cutLeaseShort(leaseId, now - 1);
    const d = await contract(c0.cursor);
    expect(d.leases).toEqual([]);
    expect(d.endedLeases).toEqual([`a${leaseId}`]);
  });

  it('allocates dedicated exits at heartbeat as exclusive leases, and ends them on release', async () => {
    const u = await makeUser();
    const pkg = await makePackage(u.id, { type: 30, billing: 2, ipCount: 1 });
    const c0 = await contract();
    const hb = await nodeCall(
      'POST',
      '/node/v2/heartbeat',
      heartbeat([exitSpec('127.0.0.8', { pool: 30, expiresAt: Date.now() + 40 * 86_400_000 })]),
    );
    expect(((await hb.json()) as { data: object }).data).toMatchObject({
      accepted: 1,
      ignored: 0,
      heartbeatMs: 30000,
      pullMs: 5000,
    });
    const d1 = await contract(c0.cursor);
    expect(d1.leases).toMatchObject([{ ip: '127.0.0.8', userId: u.id, packageId: pkg, exclusive: true }]);
    expect(d1.leases[0]?.id).toMatch(/^f\d+$/);
    expect(d1.users[0]?.limits).toEqual(NODE_USER_LIMITS[30]);
    // The package is disabled; the 5-minute job releases its allocation (and announces it in the feed).
    await setPackageState(pkg, PACKAGE_STATE.disabled);
    await runScheduledJobs('*/5 * * * *', env as never);
    expect(await allocationCount({ released: false })).toBe(0);
    expect(await feedCount('f')).toBe(2);
    const d2 = await contract(d1.cursor);
    expect(d2.endedLeases).toEqual([d1.leases[0]?.id]);
  });

  it("never shows another node's exits, leases or users", async () => {
    await exit('127.0.0.2');
    await exit('127.0.0.3', { node: 2, pool: 40 });
    const a = await makeUser();
    const b = await makeUser();
    await makePackage(a.id);
    await makePackage(b.id, { type: 40, minutes: 1440 });
    await allowIp(a.id, '192.0.2.50');
    await allowIp(b.id, '192.0.2.50');
    const c1 = (await contract()).cursor;
    expect((await extractCall({ key: a.key })).text).toBe('127.0.0.2:18000');
    expect((await extractCall({ key: b.key, type: 40 })).text).toBe('127.0.0.3:18000');
    await handOverReceiptsToNodes();
    const full1 = await contract();
    expect(full1.leases.map((l) => l.userId)).toEqual([a.id]);
    expect(full1.users.map((u) => u.userId)).toEqual([a.id]);
    const delta1 = await contract(c1);
    expect(delta1.leases.map((l) => l.ip)).toEqual(['127.0.0.2']);
    expect(delta1.users.map((u) => u.userId)).toEqual([a.id]);
    const full2 = await contract(undefined, 2);
    expect(full2.leases.map((l) => l.ip)).toEqual(['127.0.0.3']);
    // Node 2 cannot take over node 1's exit by heartbeat.
    const hb = await nodeCall('POST', '/node/v2/heartbeat', heartbeat([exitSpec('127.0.0.2')]), {
      nodeId: 2,
      secret: OTHER_SECRET,
    });
    expect(((await hb.json()) as { data: object }).data).toMatchObject({ accepted: 0, ignored: 1 });
    expect((await exitFacts('127.0.0.2'))?.nodeId).toBe(1);
  });

  it('answers a full snapshot for an unknown, future, too old or malformed cursor', async () => {
    await exit('127.0.0.2');
    const u = await makeUser();
    await lease(u.id, await makePackage(u.id), await exitId('127.0.0.2'), Date.now(), Date.now() + 60_000);
    const now = Date.now();
    const cursors = [
      `c999999999.0.${now}`,
      `c0.0.${now - 25 * 3_600_000}`,
      `c0.0.${now + 3_600_000}`,
      'c0',
      'garbage',
      '',
    ];
    for (const c of cursors) {
      const got = await contract(c);
      expect(got.full).toBe(true);
      expect(got.leases).toHaveLength(1);
    }
  });
});

describe('/node/v2/contract from the node objects (decision 245)', () => {
  /** A lease of a user's package on exit `ip`:18000, from now for ten minutes. */
  const objectLease = (userId: number, packageId: number, ip = '127.0.0.2') => {
    const now = Date.now();
    return nodeLease({ ip, port: 18000, userId, packageId, productType: 10, startsAt: now, expiresAt: now + 600_000 });
  };

  it('keeps a lease once however often it is handed over, and shows it to its node only', async () => {
    await exit('127.0.0.2');
    await exit('127.0.0.3', { node: 2 });
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    await allowIp(u.id, '192.0.2.50');
    const c1 = await contract();
    const c2 = await contract(undefined, 2);
    const l = objectLease(u.id, pkg);
    expect(await keepNodeLeases(1, [l])).toBe(1);
    expect(await keepNodeLeases(1, [l, l])).toBe(0);

    const full = await contract();
    const { ipId: _, ...onTheWire } = l;
    expect(full.leases).toEqual([{ ...onTheWire, exclusive: false }]);
    expect(full.users.map((x) => x.userId)).toEqual([u.id]);
    const delta = await contract(c1.cursor);
    expect(delta.full).toBe(false);
    expect(delta.leases.map((x) => x.id)).toEqual([l.id]);
    expect(delta.users.map((x) => x.userId)).toEqual([u.id]);
    // Kept once: the next delta has nothing new, and handing it over again changes nothing.
    await keepNodeLeases(1, [l]);
    expect(await contract(delta.cursor)).toMatchObject({ full: false, leases: [], endedLeases: [], users: [] });

    // Node 2 never sees it, in a snapshot or a delta.
    expect((await contract(undefined, 2)).leases).toEqual([]);
    expect(await contract(c2.cursor, 2)).toMatchObject({ full: false, leases: [], users: [] });
  });

  it('an extraction reaches its node through the receipt hand-over, in the snapshot and the next delta', async () => {
    await exit('127.0.0.2');
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    await allowIp(u.id, '192.0.2.50');
    const c0 = await contract();
    expect((await extractCall({ key: u.key })).text).toBe('127.0.0.2:18000');
    await handOverReceiptsToNodes();
    // Handed over again (the repair sweep, a retried batch): nothing new at the node.
    expect(await handOverReceiptsToNodes()).toBe(0);
    const d = await contract(c0.cursor);
    expect(d.leases).toMatchObject([{ ip: '127.0.0.2', userId: u.id, packageId: pkg, exclusive: false }]);
    expect((await contract()).leases.map((x) => x.id)).toEqual(d.leases.map((x) => x.id));
  });

  it('ends the leases of a refunded package, and of one that reached its end, in the next delta', async () => {
    await exit('127.0.0.2');
    const u = await makeUser();
    const refunded = await makePackage(u.id);
    const lapsing = await makePackage(u.id);
    const a = objectLease(u.id, refunded);
    const b = objectLease(u.id, lapsing);
    await keepNodeLeases(1, [a, b]);
    const c0 = await contract();
    expect(c0.leases.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());

    await setPackageState(refunded, PACKAGE_STATE.disabled);
    const d1 = await contract(c0.cursor);
    expect(d1.endedLeases).toEqual([a.id]);
    expect(d1.leases).toEqual([]);
    expect(d1.removedUsers).toEqual([]);
    expect((await contract()).leases.map((x) => x.id)).toEqual([b.id]);

    await endPackageAt(lapsing);
    const d2 = await contract(d1.cursor);
    // (The refund is inside the look-back margin still: its lease may be named again, which a node ignores.)
    expect(d2.endedLeases).toContain(b.id);
    expect(d2.removedUsers).toEqual([u.id]);
    expect((await contract()).leases).toEqual([]);
  });

  it('answers a cursor of the older format (c<seq>.<ms>), or one beyond the object, with a full snapshot', async () => {
    await exit('127.0.0.2');
    const u = await makeUser();
    await keepNodeLeases(1, [objectLease(u.id, await makePackage(u.id))]);
    const now = Date.now();
    const fresh = await contract();
    const [feedSeq] = fresh.cursor.slice(1).split('.');
    for (const c of [`c${feedSeq}.${now}`, `c${feedSeq}.999999.${now}`]) {
      const got = await contract(c);
      expect(got.full).toBe(true);
      expect(got.leases).toHaveLength(1);
      expect(got.cursor).toMatch(/^c\d+\.\d+\.\d+$/);
    }
    expect((await contract(fresh.cursor)).full).toBe(false);
  });

  it('the exit trace finds a lease held only in the node object, with the usage it owns', async () => {
    await exit('127.0.0.9');
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    const l = objectLease(u.id, pkg, '127.0.0.9');
    await keepNodeLeases(1, [l]);
    await addUsage({
      userId: u.id,
      ip: '127.0.0.9',
      port: 18000,
      client: '198.51.100.7',
      at: l.startsAt,
      bytesIn: 4096,
    });
    const support = await operatorLogin('support');
    const at = shanghaiDateTime(l.startsAt + 60_000);
    const found = await callApi('Admin.ExitTrace', { ip: '127.0.0.9', at }, { cookie: support.cookie });
    expect(found.body.P?.holders).toEqual([
      expect.objectContaining({
        userId: u.id,
        packageId: pkg,
        ip: '127.0.0.9',
        port: 18000,
        assignedAt: l.startsAt,
        expiresAt: l.expiresAt,
        clients: ['198.51.100.7'],
        bytes: 4096,
        from: 'hot',
      }),
    ]);
    const before = shanghaiDateTime(l.startsAt - 3_600_000);
    expect(
      (await callApi('Admin.ExitTrace', { ip: '127.0.0.9', at: before }, { cookie: support.cookie })).body.P?.holders,
    ).toEqual([]);
  });
  it("the exit trace finds a lease in the object of the node that ran the exit then, after the exit's row left D1 or went to another node", async () => {
    // Node 1 ran 127.0.0.8 two days ago; its row left D1 a day after the exit expired (expirePoolIps), and node 2 now
    // runs the same address. The lease stays in node 1's object for the hot window (7 days after its end).
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    const start = Date.now() - 2 * DAY_MS;
    const l = nodeLease({
      ip: '127.0.0.8',
      port: 18000,
      userId: u.id,
      packageId: pkg,
      productType: 10,
      startsAt: start,
      expiresAt: start + 300_000,
    });
    await keepNodeLeases(1, [l]);
    const support = await operatorLogin('support');
    const at = shanghaiDateTime(start + 60_000);
    const trace = async () =>
      (await callApi('Admin.ExitTrace', { ip: '127.0.0.8', at }, { cookie: support.cookie })).body.P?.holders;
    const held = [expect.objectContaining({ userId: u.id, packageId: pkg, assignedAt: start, from: 'hot' })];
    // No row of the address in D1 at all.
    expect(await trace()).toEqual(held);
    // The address now runs on node 2.
    await exit('127.0.0.8', { node: 2 });
    expect(await trace()).toEqual(held);
  });

  it('stores usage and attributes refusals on an exit leased only in the node object', async () => {
    const cookie = await loginBySms('13800001237');
    const uid = await userIdOf('13800001237');
    await exit('127.0.0.6');
    const l = objectLease(uid, await makePackage(uid), '127.0.0.6');
    await keepNodeLeases(1, [l]);
    const now = Date.now();
    const usage = JSON.stringify({
      batchId: 'n1-u-obj',
      periodStart: now - 10_000,
      periodEnd: now,
      rows: [
        {
          userId: uid,
          ip: '127.0.0.6',
          port: 18000,
          clientIp: '198.51.100.7',
          bytesIn: 100,
          bytesOut: 20,
          connections: 1,
        },
        // No lease of this user's on that exit: refused as before.
        {
          userId: uid + 1,
          ip: '127.0.0.6',
          port: 18000,
          clientIp: '198.51.100.8',
          bytesIn: 5,
          bytesOut: 5,
          connections: 1,
        },
      ],
    });
    const stored = await nodeCall('POST', '/node/v2/usage', usage);
    expect(((await stored.json()) as { data: object }).data).toEqual({ stored: 1, duplicate: false, refused: 1 });
    // The row lands on the lease in the node's object (decision 249), not in D1.
    expect(await usageRows(uid)).toEqual([]);
    expect(await nodeUsageRows(1)).toEqual([
      { leaseId: l.id, clientIp: '198.51.100.7', bytesIn: 100, bytesOut: 20, connections: 1 },
    ]);

    const refusals = JSON.stringify({
      batchId: 'n1-r-obj',
      rows: [
        {
          at: now,
          clientIp: '198.51.100.9',
          ip: '127.0.0.6',
          port: 18000,
          userId: null,
          code: 'not_whitelisted',
        },
      ],
    });
    const res = await nodeCall('POST', '/node/v2/refusals', refusals);
    expect(((await res.json()) as { data: object }).data).toEqual({ stored: 1, duplicate: false });
    const seen = await callApi('ProxyWhiteList.GetRefusals', {}, { cookie });
    expect(seen.body.P).toMatchObject({ total: 1, list: [{ clientIp: '198.51.100.9', exit: '127.0.0.6:18000' }] });
  });

  it('trims leases past the hot window by its alarm; its seq never goes back, so cursors stay good', async () => {
    await exit('127.0.0.7');
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    const now = Date.now();
    const live = objectLease(u.id, pkg, '127.0.0.7');
    // Kept last (the object's newest seq), ended twenty-three days ago: past the archive's cutoff (seven days) and the
    // alarm's backstop of two further windows (decision 255: the archive job indexes and drops the copies before that).
    const old = nodeLease({
      ip: '127.0.0.7',
      port: 18000,
      userId: u.id,
      packageId: pkg,
      productType: 10,
      startsAt: now - 23 * DAY_MS - 600_000,
      expiresAt: now - 23 * DAY_MS,
    });
    await keepNodeLeases(1, [live]);
    await keepNodeLeases(1, [old]);
    const support = await operatorLogin('support');
    const trace = async (at: number) =>
      (
        await callApi('Admin.ExitTrace', { ip: '127.0.0.7', at: shanghaiDateTime(at) }, { cookie: support.cookie })
      ).body.P?.holders.map((h) => h.assignedAt);
    expect(await trace(old.startsAt + 60_000)).toEqual([old.startsAt]);
    const c0 = await contract();
    expect(c0.leases.map((x) => x.id)).toEqual([live.id]);

    expect(await runNodeLeasesAlarm(1)).toBe(true);
    expect(await trace(old.startsAt + 60_000)).toEqual([]);
    expect(await trace(live.startsAt + 60_000)).toEqual([live.startsAt]);
    const d = await contract(c0.cursor);
    expect(d).toMatchObject({ full: false, leases: [], endedLeases: [] });
    expect(d.cursor.split('.')[1]).toBe(c0.cursor.split('.')[1]);
  });
});

describe('/node/v2/heartbeat health', () => {
  it('an exit reported unhealthy, or silent for 3 intervals, is not handed out by /extract', async () => {
    const u = await makeUser();
    await makePackage(u.id);
    await allowIp(u.id, '192.0.2.50');
    await nodeCall(
      'POST',
      '/node/v2/heartbeat',
      heartbeat([exitSpec('127.0.0.2'), exitSpec('127.0.0.3'), exitSpec('127.0.0.4', { healthy: false })]),
    );
    const got = await extractCall({ key: u.key, num: 10, sep: 4 });
    expect(got.text.split('|').sort()).toEqual(['127.0.0.2:18000', '127.0.0.3:18000']);
    // 127.0.0.3 was last seen 2 minutes ago; the next heartbeat (without it) sweeps it out.
    await setExitLastSeen(Date.now() - 120_000, '127.0.0.3');
    await nodeCall('POST', '/node/v2/heartbeat', heartbeat([exitSpec('127.0.0.2')]));
    expect((await exitFacts('127.0.0.3'))?.healthy).toBe(false);
    const again = await extractCall({ key: u.key, num: 10, sep: 4 }, '192.0.2.50');
    expect(again.text.split('|')).toEqual(['127.0.0.2:18000']);
  });

  it('the 5-minute job sweeps exits of a v2 node that stopped heartbeating, not v1 exits', async () => {
    await nodeCall('POST', '/node/v2/heartbeat', heartbeat([exitSpec('127.0.0.2')]));
    await exit('203.0.113.9', { node: 2 }); // node 2 never spoke v2
    await setExitLastSeen(Date.now() - 600_000);
    await runScheduledJobs('*/5 * * * *', env as never);
    expect((await exitFacts('127.0.0.2'))?.healthy).toBe(false);
    expect((await exitFacts('203.0.113.9'))?.healthy).toBe(true);
  });
});

describe('/node/v2/usage and /node/v2/refusals', () => {
  it('stores a usage batch once, ignores rows for other nodes’ exits, and the bytes reach the bandwidth API and the IP records', async () => {
    const cookie = await loginBySms('13800001234');
    const userId = await userIdOf('13800001234');
    const ipId = await exit('127.0.0.2');
    await exit('127.0.0.3', { node: 2 });
    const now = Date.now();
    await lease(userId, await makePackage(userId), ipId, now - 120_000, now + 120_000);
    const row = { userId, port: 18000, clientIp: '127.0.0.1', connections: 3 };
    const body = JSON.stringify({
      batchId: 'n1-u-1',
      periodStart: now - 60_000,
      periodEnd: now,
      rows: [
        { ...row, ip: '127.0.0.2', bytesIn: 1000, bytesOut: 5000 },
        { ...row, ip: '127.0.0.3', bytesIn: 7, bytesOut: 7 },
      ],
    });
    const first = await nodeCall('POST', '/node/v2/usage', body);
    expect(((await first.json()) as { data: object }).data).toEqual({ stored: 1, duplicate: false, refused: 1 });
    const retry = await nodeCall('POST', '/node/v2/usage', body);
    expect(((await retry.json()) as { data: object }).data).toEqual({ stored: 0, duplicate: true, refused: 0 });
    expect((await usageRows()).map((u) => u.connections)).toEqual([3]);
    await runScheduledJobs('*/5 * * * *', env as never);
    await runScheduledJobs('7 * * * *', env as never);
    const hour = await callApi('Statistics.Bandwidth', { range: '24h' }, { cookie });
    expect(hour.body.P?.total).toEqual({ bytesIn: 1000, bytesOut: 5000 });
    const month = await callApi('Statistics.Bandwidth', { range: '30d' }, { cookie });
    expect(month.body.P?.total.bytesOut).toBe(5000);
    // The IP records show each extracted IP's own traffic during its lease.
    const ips = await callApi('ProxyLog.GetList', {}, { cookie });
    expect(ips.body.P?.list).toEqual([expect.objectContaining({ ip: '127.0.0.2', bytes: 6000, connections: 3 })]);
  });

  it('attributes refusals without a user to the lease holders at that moment, once per batch', async () => {
    const cookieA = await loginBySms('13800001235');
    const cookieB = await loginBySms('13800001236');
    const a = await userIdOf('13800001235');
    const b = await userIdOf('13800001236');
    const ipId = await exit('127.0.0.2');
    const now = Date.now();
    await lease(a, await makePackage(a), ipId, now - 120_000, now + 120_000);
    await lease(b, await makePackage(b), ipId, now - 600_000, now - 300_000); // ended before the refusal
    const body = JSON.stringify({
      batchId: 'n1-r-1',
      rows: [
        {
          at: now - 1000,
          clientIp: '198.51.100.7',
          ip: '127.0.0.2',
          port: 18000,
          userId: null,
          code: 'not_whitelisted',
        },
        { at: now - 500, clientIp: '198.51.100.8', ip: '127.0.0.2', port: 18000, userId: b, code: 'lease_expired' },
        { at: now - 400, clientIp: '198.51.100.9', ip: '127.0.0.99', port: 18000, userId: a, code: 'over_rate' },
      ],
    });
    const res = await nodeCall('POST', '/node/v2/refusals', body);
    expect(((await res.json()) as { data: object }).data).toEqual({ stored: 2, duplicate: false });
    const retry = await nodeCall('POST', '/node/v2/refusals', body);
    expect(((await retry.json()) as { data: object }).data).toEqual({ stored: 0, duplicate: true });
    const seenA = await callApi('ProxyWhiteList.GetRefusals', {}, { cookie: cookieA });
    expect(seenA.body.P).toMatchObject({
      total: 1,
      list: [
        {
          clientIp: '198.51.100.7',
          exit: '127.0.0.2:18000',
          code: 'not_whitelisted',
          reason: '您的IP 198.51.100.7 不在白名单中：请在个人中心「白名单」添加该IP，或使用账号密码认证',
        },
      ],
    });
    const seenB = await callApi('ProxyWhiteList.GetRefusals', {}, { cookie: cookieB });
    expect(seenB.body.P?.list.map((r) => r.code)).toEqual(['lease_expired']);
  });

  it('refuses bad bodies with 400 and writes nothing', async () => {
    const now = Date.now();
    const cases: [string, string][] = [
      ['/node/v2/heartbeat', heartbeat([exitSpec('not-an-ip')])],
      ['/node/v2/heartbeat', heartbeat([exitSpec('127.0.0.2', { pool: 20 })])],
      ['/node/v2/heartbeat', '{"exits":'],
      [
        '/node/v2/usage',
        JSON.stringify({
          batchId: 'x',
          periodStart: now,
          periodEnd: now,
          rows: [
            { userId: 1, ip: '127.0.0.2', port: 18000, clientIp: '1.2.3.4', bytesIn: -1, bytesOut: 0, connections: 0 },
          ],
        }),
      ],
      ['/node/v2/usage', JSON.stringify({ batchId: 'has space', periodStart: now, periodEnd: now, rows: [] })],
      ['/node/v2/usage', JSON.stringify({ batchId: 'y', periodStart: now, periodEnd: now - 1, rows: [] })],
      [
        '/node/v2/refusals',
        JSON.stringify({
          batchId: 'z',
          rows: [{ at: now, clientIp: '1.2.3.4', ip: '127.0.0.2', port: 18000, userId: null, code: 'nope' }],
        }),
      ],
    ];
    for (const [path, body] of cases) {
      const res = await nodeCall('POST', path, body);
      expect(res.status, `${path} ${body}`).toBe(400);
      expect(((await res.json()) as { code: number }).code).toBe(400);
    }
    expect(await historyCounts()).toMatchObject({ exits: 0, usage: 0, refusals: 0, batches: 0 });
  });
});

describe('query plans of the node objects’ D1 reads', () => {
  it('read packages and usage through indexes, never a scan of a table that grows', async () => {
    const { db, seen } = recordingDb();
    const now = Date.now();
    await packagesStillLive(db, [1, 2, 3], now);
    await usageOfWindows(db, [{ userId: 7, ip: '203.0.113.9', port: 18000, from: now - 600_000, until: now }]);
    expect(seen).toHaveLength(2);
    for (const { sql, binds } of seen) {
      const scans = (await queryPlan(sql, binds))
        .map((r) => r.detail)
        .filter((d) => /^SCAN /.test(d) && !/json_each|VIRTUAL TABLE|CONSTANT/.test(d));
      expect(scans, sql).toEqual([]);
    }
  });
});
