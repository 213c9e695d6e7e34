// Pieces of the node without sockets: configuration, the contract store, the authorizer, the report spool.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Authorizer, Limiter } from '../src/authorize.ts';
import { ConfigError, exitExpiresAt, parseConfig } from '../src/config.ts';
import { ContractStore } from '../src/contract.ts';
import { silentLogger } from '../src/log.ts';
import { MAX_REFUSALS_PER_CUT, Reporter } from '../src/reports.ts';
import { PortalError } from '../src/portal.ts';
import { type ContractAnswer, contractPath, MAX_NODE_BODY_BYTES, type UsageBatch } from '../src/wire.ts';
import { lease, sha, user, verifier } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'yunshu-units-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const exit = { ip: '127.0.0.2', port: 18000, province: '广东省', city: '深圳市', carrier: '电信' };
const base = { portalUrl: 'http://127.0.0.1:8787/', nodeId: 1, exits: [exit] };

describe('config', () => {
  test('reads the secret from a dotenv file, the environment, or inline; defaults are applied', () => {
    writeFileSync(join(dir, '.dev.vars'), '# comment\nOTHER=x\nNODE_DEV_SECRET="s3cret-from-file"\n');
    const c = parseConfig({ ...base, secretFile: '.dev.vars', secretKey: 'NODE_DEV_SECRET' }, dir, {});
    assert.equal(c.secret, 's3cret-from-file');
    assert.equal(c.portalUrl, 'http://127.0.0.1:8787');
    assert.equal(c.graceMs, 60_000);
    assert.equal(c.staleMs, 600_000);
    assert.equal(c.tunnelBufferBytes, 256 * 1024 * 1024);
    assert.equal(
      parseConfig({ ...base, tunnelBufferMiB: 8 }, dir, { YUNSHU_NODE_SECRET: 'x' }).tunnelBufferBytes,
      8 << 20,
    );
    assert.throws(() => parseConfig({ ...base, tunnelBufferMiB: -1 }, dir, { YUNSHU_NODE_SECRET: 'x' }), ConfigError);
    assert.equal(c.exits[0]?.pool, 10);
    assert.deepEqual(c.exits[0]?.protocols, ['http', 'https', 'socks5']);
    assert.equal(parseConfig(base, dir, { YUNSHU_NODE_SECRET: 'from-env' }).secret, 'from-env');
    assert.equal(parseConfig({ ...base, secret: 'inline' }, dir, { YUNSHU_NODE_SECRET: 'x' }).secret, 'inline');
    assert.equal(
      parseConfig(base, dir, { YUNSHU_NODE_SECRET: 'x', YUNSHU_NODE_PORTAL: 'http://127.0.0.1:8812' }).portalUrl,
      'http://127.0.0.1:8812',
    );
  });

  test('an exit without expiresAt reports a rolling expiry (now + ttl) at every heartbeat', () => {
    const c = parseConfig({ ...base, exits: [{ ...exit, ttlMs: 1000 }] }, dir, { YUNSHU_NODE_SECRET: 'x' });
    const e = c.exits[0];
    assert.ok(e);
    assert.equal(exitExpiresAt(e, 5000), 6000);
    assert.equal(exitExpiresAt(e, 9000), 10_000);
    const fixed = parseConfig({ ...base, exits: [{ ...exit, expiresAt: 1234 }] }, dir, { YUNSHU_NODE_SECRET: 'x' });
    assert.equal(exitExpiresAt(fixed.exits[0] as (typeof fixed.exits)[0], 9000), 1234);
  });

  test('bad configurations are refused with a message naming the field', () => {
    const bad = (raw: unknown, re: RegExp) =>
      assert.throws(
        () => parseConfig(raw, dir, {}),
        (e: Error) => e instanceof ConfigError && re.test(e.message),
      );
    bad(base, /no secret/);
    bad({ ...base, secret: 'x', portalUrl: 'ftp://x' }, /portalUrl/);
    bad({ ...base, secret: 'x', exits: [] }, /exits/);
    bad({ ...base, secret: 'x', exits: [{ ...exit, carrier: '铁通' }] }, /carrier/);
    bad({ ...base, secret: 'x', exits: [{ ...exit, ip: '127.0.0' }] }, /ip/);
    bad({ ...base, secret: 'x', exits: [{ ...exit, pool: 20 }] }, /pool/);
    bad({ ...base, secret: 'x', exits: [exit, exit] }, /twice/);
    bad({ ...base, secretFile: 'missing.env', secretKey: 'K' }, /cannot be read/);
  });
});

const answer = (a: Partial<ContractAnswer>): ContractAnswer => ({
  cursor: 'c1',
  full: false,
  serverTime: Date.now(),
  leases: [],
  endedLeases: [],
  users: [],
  removedUsers: [],
  ...a,
});

describe('contract and authorization', () => {
  test('never pulled: contract_stale; a snapshot, a delta and an ended lease give the expected decisions', () => {
    const store = new ContractStore(join(dir, 'contract.json'));
    const auth = new Authorizer(store, new Limiter(), 60_000);
    const attempt = { ip: '127.0.0.2', port: 18000, clientIp: '10.0.0.1' };
    assert.deepEqual(auth.decide(attempt), { ok: false, code: 'contract_stale', userId: null });
    store.apply(
      answer({
        full: true,
        users: [
          user(1, {
            whiteList: [
              { ip: '10.0.0.1', expiresAt: 0 },
              { ip: '10.0.0.2', expiresAt: 1 },
            ],
          }),
        ],
        leases: [lease('a1', '127.0.0.2', 18000, 1)],
      }),
    );
    const ok = auth.decide(attempt);
    assert.ok(ok.ok);
    // An expired white-list entry does not count.
    assert.equal((auth.decide({ ...attempt, clientIp: '10.0.0.2' }) as { code: string }).code, 'not_whitelisted');
    // Ended early by a delta: lease_expired (not exit_not_leased) for its holder.
    store.apply(answer({ cursor: 'c2', endedLeases: ['a1'] }));
    assert.deepEqual(auth.decide(attempt), { ok: false, code: 'lease_expired', userId: 1 });
    // A new lease in a later delta authorizes again; a full snapshot without it ends it again.
    store.apply(answer({ cursor: 'c3', leases: [lease('a2', '127.0.0.2', 18000, 1)] }));
    assert.ok(auth.decide(attempt).ok);
    store.apply(
      answer({ cursor: 'c4', full: true, users: [user(1, { whiteList: [{ ip: '10.0.0.1', expiresAt: 0 }] })] }),
    );
    assert.equal((auth.decide(attempt) as { code: string }).code, 'lease_expired');
  });

  test('the contract survives a restart through its file, cursor included', () => {
    const file = join(dir, 'persist.json');
    const a = new ContractStore(file);
    a.apply(
      answer({
        cursor: 'c9',
        full: true,
        users: [user(3)],
        leases: [lease('f1', '127.0.0.3', 18000, 3, { exclusive: true })],
      }),
    );
    a.save();
    const b = new ContractStore(file);
    assert.ok(b.load());
    assert.equal(b.cursor, 'c9');
    assert.equal(b.pulledAt, a.pulledAt);
    assert.ok(b.byCredentials('u3', 'pw3'));
    assert.equal(b.byCredentials('u3', 'wrong'), null);
    assert.equal(b.leasesOn('127.0.0.3', 18000).live.length, 1);
    assert.equal(new ContractStore(join(dir, 'none.json')).load(), false);
  });
});

describe('password verifiers (docs/decisions/200)', () => {
  test('the node holds only a salted verifier: the right password passes, a wrong one or another salt does not', () => {
    const store = new ContractStore();
    const salt = Buffer.alloc(16, 7);
    store.apply(
      answer({ cursor: 'c1', full: true, users: [user(4, { passwordVerifier: verifier('u4', 'pw4', salt) })] }),
    );
    assert.ok(store.byCredentials('u4', 'pw4'));
    assert.equal(store.byCredentials('u4', 'pw5'), null);
    assert.equal(store.byCredentials('u5', 'pw4'), null);
    // The verifier is bound to the username and to its salt.
    store.apply(
      answer({ cursor: 'c2', full: true, users: [user(4, { passwordVerifier: verifier('u4x', 'pw4', salt) })] }),
    );
    assert.equal(store.byCredentials('u4', 'pw4'), null);
    store.apply(answer({ cursor: 'c3', full: true, users: [user(4, { passwordVerifier: 'garbage' })] }));
    assert.equal(store.byCredentials('u4', 'pw4'), null);
    assert.ok(!JSON.stringify([...store.users.values()]).includes('pw4'));
  });

  test('a legacy digest (a portal before decision 200) still checks; a saved one asks for a full pull', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verifier-'));
    const file = join(dir, 'contract.json');
    const legacy = { ...user(6), passwordVerifier: undefined, passwordSha256: sha('u6:pw6') };
    delete (legacy as { passwordVerifier?: string }).passwordVerifier;
    const a = new ContractStore(file);
    a.apply(answer({ cursor: 'c7', full: true, users: [legacy] }));
    assert.ok(a.byCredentials('u6', 'pw6'));
    assert.equal(a.byCredentials('u6', 'nope'), null);
    a.save();
    const b = new ContractStore(file);
    assert.ok(b.load());
    assert.equal(b.cursor, null);
    rmSync(dir, { recursive: true, force: true });
  });

  test('every contract pull declares the hs1 verifiers', () => {
    assert.equal(contractPath(null), '/node/v2/contract?verifier=hs1');
    assert.equal(contractPath('c1.2'), '/node/v2/contract?cursor=c1.2&verifier=hs1');
  });
});

describe('report spool', () => {
  test('the cap on refusals per cut bounds distinct rows: a repeat of a counted one still counts, a new one is dropped', () => {
    const r = new Reporter({
      dir: join(dir, 'distinct'),
      nodeId: 7,
      client: { call: async () => Promise.reject(new Error('down')) },
      maxBytes: 100_000_000,
      log: silentLogger,
    });
    const refused = (i: number, at: number) => ({
      at,
      clientIp: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      ip: '127.0.0.2',
      port: 1,
      userId: null,
      code: 'not_whitelisted' as const,
    });
    for (let i = 0; i < MAX_REFUSALS_PER_CUT; i++) r.addRefusal(refused(i, 5));
    r.addRefusal(refused(MAX_REFUSALS_PER_CUT, 6)); // a new client past the cap: dropped
    r.addRefusal(refused(0, 7)); // the first client again: counted on its row
    r.cut(1000);
    const rows = r
      .pendingFiles()
      .filter((f) => f.kind === 'refusals')
      .flatMap(
        (f) => JSON.parse(readFileSync(f.file, 'utf8')).rows as { clientIp: string; count: number; lastAt: number }[],
      );
    assert.equal(rows.length, MAX_REFUSALS_PER_CUT);
    assert.equal(
      rows.reduce((n, x) => n + x.count, 0),
      MAX_REFUSALS_PER_CUT + 1,
    );
    assert.deepEqual(
      rows.filter((x) => x.count > 1).map((x) => [x.clientIp, x.count, x.lastAt]),
      [['10.0.0.0', 2, 7]],
    );
  });

  test('batches are written before they are pushed; over the cap the oldest refusals go first, then usage', () => {
    const spool = join(dir, 'spool');
    const failing = { call: async () => Promise.reject(new Error('down')) };
    const r = new Reporter({ dir: spool, nodeId: 7, client: failing, maxBytes: 1_000_000, log: silentLogger });
    r.addUsage({
      userId: 1,
      ip: '127.0.0.2',
      port: 1,
      clientIp: '10.0.0.1',
      bytesIn: 10,
      bytesOut: 20,
      connections: 1,
    });
    r.addUsage({ userId: 1, ip: '127.0.0.2', port: 1, clientIp: '10.0.0.1', bytesIn: 5, bytesOut: 5, connections: 1 });
    r.addRefusal({ at: 1, clientIp: '10.0.0.9', ip: '127.0.0.2', port: 1, userId: null, code: 'not_whitelisted' });
    r.cut(1000);
    const files = r.pendingFiles();
    assert.deepEqual(files.map((f) => f.kind).sort(), ['refusals', 'usage']);
    // Nothing counted, nothing written.
    r.cut(2000);
    assert.equal(r.pendingFiles().length, 2);
    // A tight cap: many refusal batches, then one more usage batch.
    const capped = new Reporter({
      dir: join(dir, 'capped'),
      nodeId: 7,
      client: failing,
      maxBytes: 600,
      log: silentLogger,
    });
    for (let i = 0; i < 6; i++) {
      capped.addRefusal({
        at: i,
        clientIp: '10.0.0.9',
        ip: '127.0.0.2',
        port: 1,
        userId: null,
        code: 'not_whitelisted',
      });
      capped.cut(10_000 + i);
    }
    capped.addUsage({
      userId: 1,
      ip: '127.0.0.2',
      port: 1,
      clientIp: '10.0.0.1',
      bytesIn: 1,
      bytesOut: 1,
      connections: 1,
    });
    capped.cut(20_000);
    const left = capped.pendingFiles();
    assert.ok(
      left.some((f) => f.kind === 'usage'),
      'usage kept',
    );
    assert.ok(left.length < 7, 'oldest refusals dropped');
    assert.equal(capped.stats.dropped, 7 - left.length);
    assert.ok(readdirSync(join(dir, 'capped')).every((f) => f === 'rejected' || f.endsWith('.json')));
  });

  test("a cut's batches fit the portal's body limit; a batch the portal finds too large (413) is split and delivered", async () => {
    const sent: UsageBatch[] = [];
    // The portal's rule: a body over MAX_NODE_BODY_BYTES is answered 413 (src/edge/node-request.ts).
    const portal = {
      call: async <T>(_m: string, _p: string, body: unknown): Promise<T> => {
        if (Buffer.byteLength(JSON.stringify(body)) > MAX_NODE_BODY_BYTES) throw new PortalError('too large', 413);
        sent.push(body as UsageBatch);
        return { ok: true } as T;
      },
    };
    const usage = (i: number) => ({
      userId: 1_000_000 + i,
      ip: `203.0.113.${i % 250}`,
      port: 20_000 + (i % 1000),
      clientIp: `198.51.${(i >> 8) & 255}.${i & 255}`,
      bytesIn: 1_000_000_000 + i,
      bytesOut: 2_000_000_000 + i,
      connections: 1000 + i,
    });
    const r = new Reporter({
      dir: join(dir, 'sized'),
      nodeId: 7,
      client: portal,
      maxBytes: 50_000_000,
      log: silentLogger,
    });
    for (let i = 0; i < 5000; i++) r.addUsage(usage(i));
    r.cut(1000);
    await r.flush(true);
    assert.equal(sent.flatMap((b) => b.rows).length, 5000);
    assert.ok(sent.length >= 2, 'cut by bytes, not only by rows');

    // Batches spooled by a node that cut by rows only (5,000 rows, then the period's rest), found after a restart:
    // the large one is split on 413, both halves and the next batch delivered, none written over another.
    sent.length = 0;
    const old = join(dir, 'old-spool');
    mkdirSync(old, { recursive: true });
    const rows = Array.from({ length: 5000 }, (_, i) => usage(i));
    writeFileSync(
      join(old, 'usage-000000000001000-1.json'),
      JSON.stringify({ batchId: 'n7-1000-1', periodStart: 1000, periodEnd: 2000, rows }),
    );
    writeFileSync(
      join(old, 'usage-000000000001000-2.json'),
      JSON.stringify({ batchId: 'n7-1000-2', periodStart: 1000, periodEnd: 2000, rows: [usage(5000)] }),
    );
    const legacy = new Reporter({ dir: old, nodeId: 7, client: portal, maxBytes: 50_000_000, log: silentLogger });
    await legacy.flush(true);
    assert.equal(sent.flatMap((b) => b.rows).length, 5001);
    assert.deepEqual(sent.map((b) => b.batchId).sort(), ['n7-1000-1.0', 'n7-1000-1.1', 'n7-1000-2']);
    assert.equal(legacy.pendingFiles().length, 0);
  });
});
