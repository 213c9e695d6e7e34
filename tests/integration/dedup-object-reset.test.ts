// Decision 253: a dedup call whose customer object breaks (a reset by a deploy, a lost connection) after D1 charged it
// answers the IPs D1 charged, found by the call's id in its receipt (still in D1) or in the object (kept, the receipt
// deleted); the receipt goes to the object by a plain call's hand-over (the repair behind it); nothing is charged
// twice, and a call that was not charged answers nothing.
import { env, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CandidateFilter } from '../../src/server/db/extract';
import { chargedDedupCall } from '../../src/server/domain/extract';
import { type CustomerRecords, customerRecords } from '../../src/server/objects/customer-records';
import { resetDb } from '../helpers/api';
import {
  allowIp,
  extractCall,
  makePackage,
  makeUser,
  oneBatchCall,
  remainingCount,
  simplePool,
} from '../helpers/delivery';
import {
  receiptCount,
  recordsOf,
  runRecordsAlarm,
  settleRecords,
  untilKept,
  untilNodesHold,
} from '../helpers/receipts';

beforeEach(resetDb);

const CALLER = '192.0.2.50';
const ipsOf = (text: string) => (text ? text.split('\r\n') : []);

describe('a dedup call whose object breaks after the charge', () => {
  it('answers the IPs D1 charged; the call is kept once and its leases reach the node; no IP twice', async () => {
    await simplePool(9);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, CALLER);
    // The object's keeping of the charged call throws once: the object breaks between D1's charge and its answer.
    await runInDurableObject(customerRecords(env.CUSTOMER_RECORDS, u.id), (o: CustomerRecords) => {
      o.record = () => {
        // Back to the class's method (RPC calls reach only the class's methods, never a property of the instance).
        Reflect.deleteProperty(o, 'record');
        throw new Error('Durable Object reset because its code was updated.');
      };
    });
    const r = await extractCall({ key: u.key, num: 3, dedup: 1 });
    expect(r.status).toBe(200);
    const answered = ipsOf(r.text);
    expect(answered).toHaveLength(3);
    // Charged once; the IPs answered are the ones the receipt leases (below, at the node).
    expect(await remainingCount(u.id)).toBe(97);
    // The Worker hands the receipt to the object as it does a plain call's (its 250 ms batch): the call is kept and its
    // leases reach the node without waiting for the repair; the repair (delivery job, records read) keeps it once.
    expect(await untilKept(u.id, 1)).toEqual({ logs: 1, leases: 3 });
    expect((await untilNodesHold(u.id, 3)).map((l) => `${l.ip}:${l.port}`).sort()).toEqual([...answered].sort());
    await settleRecords();
    expect(await recordsOf(u.id)).toEqual({ logs: 1, leases: 3 });
    await runRecordsAlarm(u.id);
    expect(await receiptCount()).toBe(0);
    // The next dedup call of the day gets the other six, never one of the three.
    const next = await extractCall({ key: u.key, num: 6, dedup: 1 });
    expect(next.status).toBe(200);
    expect(new Set([...answered, ...ipsOf(next.text)]).size).toBe(9);
    expect(await remainingCount(u.id)).toBe(91);
  });

  it('finds a call the object kept after its receipt left D1, and nothing for a call that was not charged', async () => {
    await simplePool(5);
    const u = await makeUser();
    await makePackage(u.id, { remaining: 100 });
    await allowIp(u.id, CALLER);
    const now = Date.now();
    const filter: CandidateFilter = {
      pool: 10,
      protocolBit: 1,
      minExpiresAt: now,
      regions: [],
      excludes: [],
      carriers: [],
      limit: 2,
      excludeDay: null,
      excludeInUseAt: null,
      userId: u.id,
    };
    const stub = customerRecords(env.CUSTOMER_RECORDS, u.id);
    const out = await stub.extractDedup(
      { userId: u.id, rateLimit: 10 },
      { ...oneBatchCall(filter, now), callId: 'call-kept' },
    );
    if (out === 'busy' || !out.charged) throw new Error('not charged');
    // The object kept the call and its alarm deleted the receipt from D1 (the answer was then lost on its way).
    await runRecordsAlarm(u.id);
    expect(await receiptCount()).toBe(0);
    const found = await chargedDedupCall(env.DB, env.CUSTOMER_RECORDS, u.id, 'call-kept');
    const byIp = (a: { ip: string }, b: { ip: string }) => a.ip.localeCompare(b.ip);
    expect(found?.receipt).toBeNull();
    expect(found?.ips.sort(byIp)).toEqual([...out.charged.ips].sort(byIp));
    expect(await chargedDedupCall(env.DB, env.CUSTOMER_RECORDS, u.id, 'call-never-charged')).toBeNull();
    // Another customer's call id is not this customer's.
    expect(await chargedDedupCall(env.DB, env.CUSTOMER_RECORDS, u.id + 1, 'call-kept')).toBeNull();
  });
});
