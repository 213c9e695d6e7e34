// Node signing secrets (docs/decisions/162): sealed at rest with NODE_SECRET_KEY (never plain in D1, the audit log or
// the list); a rotation keeps the replaced secret valid for 24 hours (until the node signs with the new one, if
// sooner), or refuses it at once when asked; a disabled node is refused at once; rows still in plain (from before the
// key, or the seed) keep working and are sealed by the node's next call or by the 5-minute job.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { signNodeRequest } from '../../src/server/domain/node-auth';
import {
  checkNodeRequest,
  type NodeCredentials,
  openNodeSecret,
  ROTATION_GRACE_MS,
  sealNodeSecret,
} from '../../src/server/domain/node-secrets';
import { rotateNodeSecret } from '../../src/server/domain/console-nodes';
import { type Bindings, readConfig } from '../../src/server/env';
import { runScheduledJobs } from '../../src/server/jobs';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { addNode, addPool, NODE_SECRET, nodeCall, nodeSecrets } from '../helpers/delivery';
import { auditRows, operatorLogin } from '../helpers/operators';
import { HOUR_MS } from '../../src/lib/time';

const KEY = readConfig(env as unknown as Bindings).nodeSecretKey;

beforeEach(async () => {
  await resetDb();
});

const contract = (nodeId: number, secret: string) =>
  nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { nodeId, secret });

async function createNode(cookie: string, name: string) {
  const res = await callApi('Admin.NodeCreate', { name }, { cookie });
  return { id: res.body.P?.id ?? 0, secret: res.body.P?.secret ?? '' };
}

describe('node secrets at rest', { timeout: 60_000 }, () => {
  it('a created node signs with its secret; D1, the audit log and the list never hold it in plain', async () => {
    const op = await operatorLogin('ops');
    const { id, secret } = await createNode(op.cookie, 'sealed-01');
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const stored = await nodeSecrets(id);
    expect(stored?.secret).toMatch(/^gcm1:/);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(await openNodeSecret(KEY, stored?.secret ?? '')).toBe(secret);
    // Another key cannot open it: a node sealed under a lost key is refused (rotate it).
    expect(await openNodeSecret('ff'.repeat(32), stored?.secret ?? '')).toBeNull();
    expect((await contract(id, secret)).status).toBe(200);
    expect((await contract(id, 'f'.repeat(64))).status).toBe(401);

    const rotated = await callApi('Admin.NodeRotateSecret', { id, reason: '例行轮换' }, { cookie: op.cookie });
    const fresh = rotated.body.P?.secret ?? '';
    const after = JSON.stringify(await nodeSecrets(id));
    expect(after).not.toContain(secret);
    expect(after).not.toContain(fresh);
    const list = await callApi('Admin.NodeList', {}, { cookie: op.cookie });
    const audit = await auditRows({ operatorId: op.id });
    for (const text of [JSON.stringify(list.body), JSON.stringify(audit)]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(fresh);
    }
  });

  it('a row still in plain keeps working and is sealed by its next call; the job seals silent ones', async () => {
    await addPool([]); // node 1 with the plain NODE_SECRET, as rows from before NODE_SECRET_KEY
    await addNode(2, 'n2', 'silent-node-secret-0123456789', { createdAt: 0 });
    expect((await nodeSecrets(1))?.secret).toBe(NODE_SECRET);
    // A wrong signature seals nothing.
    expect((await contract(1, 'wrong-secret')).status).toBe(401);
    expect((await nodeSecrets(1))?.secret).toBe(NODE_SECRET);
    expect((await contract(1, NODE_SECRET)).status).toBe(200);
    expect((await nodeSecrets(1))?.secret).toMatch(/^gcm1:/);
    expect((await contract(1, NODE_SECRET)).status).toBe(200);

    expect((await nodeSecrets(2))?.secret).toBe('silent-node-secret-0123456789');
    await runScheduledJobs('*/5 * * * *', env as unknown as Bindings);
    expect((await nodeSecrets(2))?.secret).toMatch(/^gcm1:/);
    expect(await openNodeSecret(KEY, (await nodeSecrets(2))?.secret ?? '')).toBe('silent-node-secret-0123456789');
  });
});

describe('rotation without downtime', { timeout: 60_000 }, () => {
  it('the old secret works inside the window, the new one at once; the new one in use ends the window', async () => {
    const op = await operatorLogin('ops');
    const { id, secret: old } = await createNode(op.cookie, 'grace-01');
    const before = Date.now();
    const res = await callApi('Admin.NodeRotateSecret', { id, reason: '例行轮换' }, { cookie: op.cookie });
    const fresh = res.body.P?.secret ?? '';
    expect(res.body.P?.previousValidUntil).toBeGreaterThanOrEqual(before + ROTATION_GRACE_MS);
    expect(res.body.P?.previousValidUntil).toBeLessThanOrEqual(Date.now() + ROTATION_GRACE_MS);
    const list = await callApi('Admin.NodeList', {}, { cookie: op.cookie });
    expect(list.body.P?.nodes.find((n) => n.id === id)?.previousSecretUntil).toBe(res.body.P?.previousValidUntil);

    // The node not yet reconfigured keeps working.
    expect((await contract(id, old)).status).toBe(200);
    expect((await nodeSecrets(id))?.previousUntil).toBe(res.body.P?.previousValidUntil);
    // Its first call with the new secret ends the window: the old one is refused from then on.
    expect((await contract(id, fresh)).status).toBe(200);
    expect(await nodeSecrets(id)).toEqual(expect.objectContaining({ previousSecret: '', previousUntil: 0 }));
    expect((await contract(id, old)).status).toBe(401);
    expect((await contract(id, fresh)).status).toBe(200);
  });

  it('the old secret is refused once the window has passed (rotation 25 hours ago) and accepted inside it', async () => {
    const op = await operatorLogin('ops');
    const actor = (now: number) => ({ operatorId: op.id, operatorName: 'ops', role: 'ops' as const, ip: '1', now });
    const a = await createNode(op.cookie, 'late-01');
    const b = await createNode(op.cookie, 'late-02');
    const lateA = await rotateNodeSecret(env.DB, KEY, actor(Date.now() - 25 * HOUR_MS), {
      id: a.id,
      reason: '例行轮换',
      immediate: false,
    });
    const insideB = await rotateNodeSecret(env.DB, KEY, actor(Date.now() - 23 * HOUR_MS), {
      id: b.id,
      reason: '例行轮换',
      immediate: false,
    });
    expect((await contract(a.id, a.secret)).status).toBe(401);
    expect((await contract(a.id, lateA.secret)).status).toBe(200);
    expect((await contract(b.id, b.secret)).status).toBe(200);
    expect((await contract(b.id, insideB.secret)).status).toBe(200);
    expect((await contract(b.id, b.secret)).status).toBe(401);
  });

  it('an immediate rotation (leaked secret) refuses the old one at once; a disabled node is refused with either', async () => {
    const op = await operatorLogin('ops');
    const a = await createNode(op.cookie, 'leak-01');
    const res = await callApi(
      'Admin.NodeRotateSecret',
      { id: a.id, reason: '密钥泄露', immediate: true },
      { cookie: op.cookie },
    );
    expect(res.body.P?.previousValidUntil).toBe(0);
    expect((await contract(a.id, a.secret)).status).toBe(401);
    expect((await contract(a.id, res.body.P?.secret ?? '')).status).toBe(200);

    const b = await createNode(op.cookie, 'off-01');
    const rb = await callApi('Admin.NodeRotateSecret', { id: b.id, reason: '例行轮换' }, { cookie: op.cookie });
    await callApi('Admin.NodeSetEnabled', { id: b.id, enabled: false, reason: '机房下线' }, { cookie: op.cookie });
    expect((await contract(b.id, b.secret)).status).toBe(401);
    expect((await contract(b.id, rb.body.P?.secret ?? '')).status).toBe(401);
  });

  it('customers and roles other than ops cannot rotate', async () => {
    const op = await operatorLogin('ops');
    const a = await createNode(op.cookie, 'roles-01');
    const stored = (await nodeSecrets(a.id))?.secret;
    const customer = await loginBySms('13900001801');
    expect(
      (await callApi('Admin.NodeRotateSecret', { id: a.id, reason: '例行轮换' }, { cookie: customer })).status,
    ).toBe(403);
    // The admin role may do everything (decision 101); the other roles are refused.
    for (const role of ['support', 'finance', 'content'] as const) {
      const other = await operatorLogin(role);
      const res = await callApi('Admin.NodeRotateSecret', { id: a.id, reason: '例行轮换' }, { cookie: other.cookie });
      expect(res.status, role).toBe(403);
    }
    expect((await nodeSecrets(a.id))?.secret).toBe(stored);
  });
});

describe('checkNodeRequest with an injected clock', () => {
  it('accepts the replaced secret strictly before previousUntil, never a disabled node', async () => {
    const now = 1_800_000_000_000;
    const r = { method: 'GET', path: '/node/v2/contract', timestamp: String(now), body: '' };
    const node: NodeCredentials = {
      status: 1,
      secret: await sealNodeSecret(KEY, 'new-secret-0123456789'),
      previousSecret: await sealNodeSecret(KEY, 'old-secret-0123456789'),
      previousUntil: now + 1,
    };
    const signed = async (secret: string) => ({ ...r, signature: await signNodeRequest(secret, r) });
    const oldSigned = await signed('old-secret-0123456789');
    expect(await checkNodeRequest(KEY, node, oldSigned, now)).toEqual({ ok: true, reseal: null, endGrace: false });
    expect(await checkNodeRequest(KEY, { ...node, previousUntil: now }, oldSigned, now)).toEqual({ ok: false });
    expect(await checkNodeRequest(KEY, node, await signed('new-secret-0123456789'), now)).toEqual({
      ok: true,
      reseal: null,
      endGrace: true,
    });
    expect(await checkNodeRequest(KEY, { ...node, status: 0 }, oldSigned, now)).toEqual({ ok: false });
    expect(await checkNodeRequest(KEY, { ...node, status: 0 }, await signed('new-secret-0123456789'), now)).toEqual({
      ok: false,
    });
  });

  it('production without NODE_SECRET_KEY refuses to seal or open node secrets', () => {
    const config = readConfig({
      APP_ENV: 'production',
      API_AES_KEY: 'a'.repeat(64),
      API_AES_IV: 'b'.repeat(32),
      SESSION_SECRET: 's'.repeat(40),
      CHAT_SIGN_SECRET: 'c'.repeat(40),
    } as unknown as Bindings);
    expect(() => config.nodeSecretKey).toThrow('production configuration is missing: NODE_SECRET_KEY');
  });
});
