// The fixed-IP list's ip filter, bandwidth ranges, the identity label after personal
// verification, password guesses in User.ChangePwd, single-winner review decisions and login answers that do not
// reveal which phones are registered.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput } from '../../src/lib/api-core';
import { WITHDRAWAL_STATE } from '../../src/lib/commission-rules';
import { COMPANY_STATE } from '../../src/lib/company-states';
import { reviewCompanyAuth } from '../../src/server/domain/company-auth';
import { decideWithdrawal } from '../../src/server/domain/promotion';
import { accountOf, lapseLoginLock, setUserPassword, userIdOf } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { addPool, allocateFixed, makePackage } from '../helpers/delivery';
import { auditRows } from '../helpers/operators';
import {
  addLicenceUpload,
  companyEventCount,
  newUser,
  onlyPendingCompanyApplication,
  onlyRequestedWithdrawal,
  setCompanyState,
  simulatorVerdict,
  validId,
  withdrawals,
} from '../helpers/trust';
import { DAY_MS, HOUR_MS } from '../../src/lib/time';

beforeEach(resetDb);

describe('ProxyIp.GetLongStaticIpList for fixed IPs (types 30/50)', () => {
  it('filters by ip', async () => {
    const cookie = await loginBySms('13700000001');
    const userId = await userIdOf('13700000001');
    await addPool([
      { ip: '198.18.0.1', pool: 30 },
      { ip: '198.18.0.2', pool: 30 },
      { ip: '198.18.0.3', pool: 30 },
    ]);
    const pkg = await makePackage(userId, { type: 30, ipCount: 3 });
    const now = Date.now();
    await allocateFixed({ userId, packageId: pkg, allocatedAt: now, expiresAt: now + 86_400_000 });
    for (const type of [30, 50] as const) {
      const all = await callApi('ProxyIp.GetLongStaticIpList', { type }, { cookie });
      expect(all.body.P?.total).toBe(3);
      const one = await callApi('ProxyIp.GetLongStaticIpList', { type, ip: '198.18.0.2' }, { cookie });
      expect(one.body.P?.total).toBe(1);
      expect(one.body.P?.list.map((x) => x.ip)).toEqual(['198.18.0.2']);
      const none = await callApi('ProxyIp.GetLongStaticIpList', { type, ip: '198.18.0.9' }, { cookie });
      expect(none.body.P).toEqual({ total: 0, totalCapped: false, list: [] });
    }
  });
});

describe('Statistics.Bandwidth', () => {
  it('starts 7d and 30d at Shanghai midnight 6 and 29 days before today, 24h 23 whole hours back', async () => {
    const cookie = await loginBySms('13700000002');
    const before = Date.now();
    const span = async (range: ActionInput<'Statistics.Bandwidth'>['range']) =>
      (await callApi('Statistics.Bandwidth', { range }, { cookie })).body.P;
    const h24 = await span('24h');
    expect(h24?.bucket).toBe('hour');
    expect(h24?.from).toBe(Math.floor(before / HOUR_MS) * HOUR_MS - 23 * HOUR_MS);
    // Shanghai midnight of today (UTC+8, no daylight saving).
    const todayMidnight = Math.floor((before + 8 * HOUR_MS) / DAY_MS) * DAY_MS - 8 * HOUR_MS;
    expect((await span('7d'))?.from).toBe(todayMidnight - 6 * DAY_MS);
    expect((await span('30d'))?.from).toBe(todayMidnight - 29 * DAY_MS);
  });
});

describe('Auth.CertifyResult identity label', () => {
  it('keeps 企业已认证 for a company-certified account that also verifies as a person', async () => {
    const cookie = await newUser('13700000003');
    await setCompanyState('13700000003', COMPANY_STATE.approved);
    const init = await callApi('Auth.CertifyInit', { name: '李四', idNumber: validId('301') }, { cookie });
    const certifyId = init.body.P?.certifyId as string;
    await simulatorVerdict(certifyId, 'T');
    const result = await callApi('Auth.CertifyResult', { certifyId }, { cookie });
    expect(result.body.P).toMatchObject({ passed: true, identityLabel: '企业已认证' });
    const mine = await callApi('User.GetMineInfo', {}, { cookie });
    expect(mine.body.P?.identityLabel).toBe(result.body.P?.identityLabel);
  });

  it('says 个人已认证 for an account without company certification', async () => {
    const cookie = await newUser('13700000004');
    const init = await callApi('Auth.CertifyInit', { name: '王五', idNumber: validId('302') }, { cookie });
    const certifyId = init.body.P?.certifyId as string;
    await simulatorVerdict(certifyId, 'T');
    const result = await callApi('Auth.CertifyResult', { certifyId }, { cookie });
    expect(result.body.P?.identityLabel).toBe('个人已认证');
  });
});

describe('User.ChangePwd by current password', () => {
  const phone = '13700000005';
  async function withPassword(): Promise<string> {
    const cookie = await loginBySms(phone);
    await setUserPassword(phone, 'right1234');
    return cookie;
  }
  const change = (cookie: string, oldPassword: string) =>
    callApi('User.ChangePwd', { oldPassword, newPassword: 'brandnew99' }, { cookie });

  it('locks after 5 wrong guesses: the right password then changes nothing', async () => {
    const cookie = await withPassword();
    const hashBefore = (await accountOf(phone)).passwordHash;
    for (let i = 0; i < 4; i++) expect((await change(cookie, `wrong${i}000`)).body.E).toBe('当前密码错误');
    expect((await change(cookie, 'wrong9000')).body.E).toMatch(/错误次数过多/);
    const right = await change(cookie, 'right1234');
    expect(right.body.E).toMatch(/错误次数过多/);
    expect((await accountOf(phone)).passwordHash).toBe(hashBefore);
    // The same counter guards password login: the account is locked there too.
    expect((await callApi('User.Login', { phone, password: 'right1234' })).body.E).toMatch(/已临时锁定/);
    // Once the lock lapses the right password works and clears the count.
    await lapseLoginLock(phone);
    expect((await change(cookie, 'right1234')).body.P).toBeDefined();
    expect((await accountOf(phone)).failedLogins).toBe(0);
  });

  it('checks at most 5 guesses under 30 concurrent attempts', async () => {
    const cookie = await withPassword();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => change(cookie, `guess${i}000`)));
    expect(results.filter((r) => r.body.E === '当前密码错误').length).toBeLessThanOrEqual(4);
    expect(results.every((r) => r.body.E === '当前密码错误' || /错误次数过多/.test(r.body.E ?? ''))).toBe(true);
    expect((await accountOf(phone)).failedLogins).toBe(5);
    expect((await change(cookie, 'right1234')).body.E).toMatch(/错误次数过多/);
  });
});

describe('password login does not reveal registered phones', () => {
  it('answers a registered and an unregistered phone the same, attempt by attempt, lock included', async () => {
    const registered = '13700000006';
    await loginBySms(registered);
    await setUserPassword(registered, 'right1234');
    const unknown = '13700000066';
    const smsOnly = '13700000067';
    await loginBySms(smsOnly);
    const answers = async (phone: string) => {
      const out: unknown[] = [];
      // Each from its own IP so the per-IP limit does not interfere.
      for (let i = 0; i < 7; i++) {
        const r = await callApi('User.Login', { phone, password: 'wrong0000' }, { ip: `198.51.100.${100 + i}` });
        out.push([r.status, r.body]);
      }
      return out;
    };
    const a = await answers(registered);
    expect(a[3]).toEqual([200, { E: '手机号或密码错误' }]);
    expect(a[4]).toEqual([200, { E: '密码错误次数过多，账号已临时锁定，请15分钟后再试或使用验证码登录' }]);
    expect(await answers(unknown)).toEqual(a);
    expect(await answers(smsOnly)).toEqual(a);
  });
});

describe('review decisions under concurrency', () => {
  it('lets exactly one of identical concurrent withdrawal decisions win, with exactly one audit event', async () => {
    await loginBySms('13700000007');
    const userId = await userIdOf('13700000007');
    const now = Date.now();
    for (let round = 0; round < 6; round++) {
      const id = await onlyRequestedWithdrawal(userId, `W${round}`, now);
      // The same decision, the same millisecond: what a double click or two operators produce.
      const outcomes = await Promise.allSettled(
        Array.from({ length: 4 }, () =>
          decideWithdrawal(
            env.DB,
            { id, decision: 'reject', note: '', actorId: userId, now: now + 1 },
            (from: number, to: number) => ({
              actor: { operatorId: null, operatorName: 'test', role: 'admin' as const, ip: '127.0.0.1', now: now + 1 },
              entry: { action: 'Test.Decide', target: `withdrawal:${id}`, before: { from }, after: { to } },
            }),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect((await withdrawals()).map((w) => ({ id: w.id, state: w.state, events: w.events }))).toEqual([
        { id, state: WITHDRAWAL_STATE.rejected, events: 1 },
      ]);
      expect(await auditRows({ target: `withdrawal:${id}` })).toHaveLength(1);
    }
  });

  it('lets exactly one of identical concurrent company reviews win, with exactly one audit event', async () => {
    await loginBySms('13700000008');
    const userId = await userIdOf('13700000008');
    const now = Date.now();
    const upload = await addLicenceUpload(userId, now);
    for (let round = 0; round < 6; round++) {
      const id = await onlyPendingCompanyApplication(userId, `hash${round}`, upload, now);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 4 }, () =>
          reviewCompanyAuth(
            env.DB,
            { id, decision: 'reject', remark: '', actorId: userId, now: now + 1 },
            (from: number, to: number) => ({
              actor: { operatorId: null, operatorName: 'test', role: 'admin' as const, ip: '127.0.0.1', now: now + 1 },
              entry: { action: 'Test.Decide', target: `company:${id}`, before: { from }, after: { to } },
            }),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(await companyEventCount({ applicationId: id })).toBe(1);
      expect(await auditRows({ target: `company:${id}` })).toHaveLength(1);
      expect((await accountOf('13700000008')).companyAuthState).toBe(COMPANY_STATE.rejected);
    }
  });
});
