// Decision 253: what a node contract delta carries for a user holding 500 live leases on the node, when the user's
// white list changes and when the user gets one more lease. The node gets only what changed (the user's entry; the
// one new lease); the figures printed are the bytes of the delta and of the node object's answer the delta is built
// from (docs/decisions/253 quotes them).
import { env, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { userChangedStatement } from '../../src/server/db/node-feed';
import { DELTA_PAGE } from '../../src/server/domain/node-contract';
import { nodeLeases } from '../../src/server/objects/node-leases';
import { resetDb } from '../helpers/api';
import {
  addExit,
  addNode,
  addPool,
  allowIp,
  forgetNodeLeases,
  keepNodeLeases,
  makePackage,
  makeUser,
  nodeCall,
  nodeLease,
} from '../helpers/delivery';

const OTHER_SECRET = 'other-node-secret-0123456789abcdef';
const HELD = 500;

beforeEach(async () => {
  await resetDb();
  await forgetNodeLeases(1);
  await addPool([]);
  await addNode(2, 'n2', OTHER_SECRET);
});

interface Delta {
  cursor: string;
  full: boolean;
  leases: { id: string; userId: number }[];
  endedLeases: string[];
  users: { userId: number; whiteList: { ip: string }[] }[];
  removedUsers: number[];
}

async function pull(cursor?: string): Promise<{ delta: Delta; bytes: number }> {
  const path = `/node/v2/contract?${cursor === undefined ? '' : `cursor=${cursor}&`}verifier=hs1`;
  const res = await nodeCall('GET', path);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { delta: (JSON.parse(text) as { data: Delta }).data, bytes: text.length };
}

/** The node object's answer a delta is built from (`changes`, asked as deltaContract asks it), in bytes. */
async function objectAnswerBytes(cursor: string, userIds: number[]): Promise<number> {
  const objectSeq = Number(cursor.split('.')[1]);
  const answer = await nodeLeases(env.NODE_LEASES, 1).changes({
    after: objectSeq,
    now: Date.now(),
    limit: DELTA_PAGE,
    packageIds: [],
    userIds,
  });
  return JSON.stringify(answer).length;
}

/** What the delta needs of the affected users (their users, product types and packages), in bytes. */
async function distinctBytes(userIds: number[]): Promise<number> {
  return runInDurableObject(
    nodeLeases(env.NODE_LEASES, 1),
    (_, state: DurableObjectState) =>
      JSON.stringify(
        state.storage.sql
          .exec(
            `SELECT DISTINCT user_id AS userId, product_type AS productType, package_id AS packageId FROM leases
           WHERE user_id IN (SELECT value FROM json_each(?1)) AND expires_at > ?2`,
            JSON.stringify(userIds),
            Date.now(),
          )
          .toArray(),
      ).length,
  );
}

describe('a contract delta for a user holding 500 live leases on the node', () => {
  it('carries the changed user entry only, and the one new lease only', async () => {
    const now = Date.now();
    const u = await makeUser();
    const pkg = await makePackage(u.id);
    await allowIp(u.id, '192.0.2.50');
    for (let i = 0; i < HELD; i++) await addExit({ ip: `10.9.${i >> 8}.${i & 255}`, node: 1, port: 18000 });
    const held = Array.from({ length: HELD }, (_, i) =>
      nodeLease({
        ip: `10.9.${i >> 8}.${i & 255}`,
        port: 18000,
        userId: u.id,
        packageId: pkg,
        productType: 10,
        startsAt: now,
        expiresAt: now + 600_000,
      }),
    );
    expect(await keepNodeLeases(1, held)).toBe(HELD);
    const full = await pull();
    expect(full.delta.leases).toHaveLength(HELD);

    // The white list changes: the node gets the user's entry, no lease.
    await allowIp(u.id, '192.0.2.51');
    // (The white list's writers append the user's feed row in the same batch: src/server/db/node-feed.ts.)
    await userChangedStatement(env.DB, u.id, Date.now()).run();
    const objectWhite = await objectAnswerBytes(full.delta.cursor, [u.id]);
    const white = await pull(full.delta.cursor);
    expect(white.delta).toMatchObject({ full: false, leases: [], endedLeases: [], removedUsers: [] });
    expect(white.delta.users.map((x) => x.whiteList.map((w) => w.ip))).toEqual([['192.0.2.50', '192.0.2.51']]);

    // One more lease: the node gets that lease and the user's entry.
    const one = nodeLease({
      ip: '10.9.0.0',
      port: 18000,
      userId: u.id,
      packageId: pkg,
      productType: 10,
      startsAt: now + 1,
      expiresAt: now + 600_000,
    });
    await keepNodeLeases(1, [one]);
    const objectOne = await objectAnswerBytes(white.delta.cursor, []);
    const next = await pull(white.delta.cursor);
    expect(next.delta.leases.map((l) => l.id)).toEqual([one.id]);
    expect(next.delta.users.map((x) => x.userId)).toEqual([u.id]);

    const needed = await distinctBytes([u.id]);
    console.log(
      JSON.stringify({
        heldLeases: HELD,
        fullSnapshotBytes: full.bytes,
        whiteListDelta: { toNodeBytes: white.bytes, objectAnswerBytes: objectWhite },
        oneLeaseDelta: { toNodeBytes: next.bytes, objectAnswerBytes: objectOne },
        distinctUserTypesPackagesBytes: needed,
      }),
    );
    // What reaches the node does not grow with the leases the user holds.
    expect(white.bytes).toBeLessThan(1_000);
    expect(next.bytes).toBeLessThan(1_200);
    // Nor does what the node's object answers the contract (one row per user, type and package: decision 253).
    expect(objectWhite).toBeLessThan(1_000);
    expect(objectOne).toBeLessThan(1_000);
  });
});
