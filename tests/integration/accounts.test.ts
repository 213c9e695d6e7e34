import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/lib/time';
import { findUserByPhone } from '../../src/server/db/users';
import {
  ageSmsCodes,
  codesSentAt,
  deleteAllSessions,
  disableAccount,
  expireSmsCodes,
  lapseLoginLock,
  loginAttemptsFrom,
  sessionCount,
  sessionTokenHashes,
  setSessionsExpiry,
  setSessionsLastSeen,
  setUserPassword,
  smsCodeCount,
  smsCodeOf,
  usersWithPhone,
} from '../helpers/accounts';
import { callApi, cookieJar, latestCode, loginBySms, resetDb } from '../helpers/api';

beforeEach(resetDb);

describe('User.GetCode', () => {
  it('sends a 6-digit code to the outbox and stores only a hash', async () => {
    const res = await callApi('User.GetCode', { phone: '13800000001' });
    expect(res.body).toEqual({ P: { sent: true } });
    const code = await latestCode('13800000001');
    expect(code).toMatch(/^\d{6}$/);
    const row = await smsCodeOf('13800000001');
    expect(row?.codeHash).not.toContain(code);
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.ttlMs).toBe(300_000);
  });

  it('gives the same answer for registered and unknown phones', async () => {
    await loginBySms('13800000002', '198.51.100.2');
    await ageSmsCodes(2 * MINUTE_MS);
    const known = await callApi('User.GetCode', { phone: '13800000002' }, { ip: '198.51.100.3' });
    const unknown = await callApi('User.GetCode', { phone: '13800000003' }, { ip: '198.51.100.3' });
    expect(known.body).toEqual(unknown.body);
    expect(known.status).toBe(unknown.status);
  });

  it('allows one code per phone per minute', async () => {
    expect((await callApi('User.GetCode', { phone: '13800000004' })).body.P).toBeTruthy();
    const again = await callApi('User.GetCode', { phone: '13800000004' });
    expect(again.body.E).toBe('验证码发送过于频繁，请1分钟后再试');
    expect(await smsCodeCount('13800000004')).toBe(1);
  });

  it('allows 5 per hour and 10 per day per phone', async () => {
    const phone = '13800000005';
    const now = Date.now();
    await codesSentAt(
      phone,
      Array.from({ length: 5 }, (_, i) => now - (i + 2) * MINUTE_MS),
    );
    expect((await callApi('User.GetCode', { phone })).body.E).toBe('验证码发送次数过多，请1小时后再试');
    await ageSmsCodes(HOUR_MS, phone);
    await codesSentAt(
      phone,
      Array.from({ length: 5 }, (_, i) => now - 2 * HOUR_MS - i * MINUTE_MS),
    );
    expect((await callApi('User.GetCode', { phone })).body.E).toBe('今日验证码发送次数已达上限，请明天再试');
  });

  it('limits codes per client IP across phones', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < 20; i++) {
      const res = await callApi('User.GetCode', { phone: `1370000${String(i).padStart(4, '0')}` }, { ip });
      expect(res.body.P).toBeTruthy();
    }
    const over = await callApi('User.GetCode', { phone: '13799999999' }, { ip });
    expect(over.body.E).toBe('当前网络请求验证码过于频繁，请稍后再试');
  });

  it('never issues two codes to one phone under concurrent requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => callApi('User.GetCode', { phone: '13800000006' })),
    );
    expect(results.filter((r) => r.body.P).length).toBe(1);
    expect(await smsCodeCount('13800000006')).toBe(1);
  });
});

describe('User.LoginRegister', () => {
  it('registers a new phone, sets HttpOnly token and Mine_Info cookies and returns the masked phone', async () => {
    await callApi('User.GetCode', { phone: '13812341234' });
    const res = await callApi(
      'User.LoginRegister',
      { phone: '13812341234', code: await latestCode('13812341234') },
      { headers: { 'source-type': '2' } },
    );
    expect(res.body.P?.state).toBe(1);
    expect(res.body.P?.isNew).toBe(true);
    expect(res.body.P?.mineInfo?.phone).toBe('138****1234');
    expect(res.body.P?.mineInfo?.identityLabel).toBe('未认证');
    const token = res.setCookies.find((c) => c.startsWith('token='));
    expect(token).toMatch(/HttpOnly/);
    expect(token).toMatch(/SameSite=Lax/);
    expect(token).toMatch(/Path=\//);
    expect(res.setCookies.find((c) => c.startsWith('Mine_Info='))).not.toMatch(/HttpOnly/);
    const tokenValue = token?.split(';')[0]?.split('=')[1] ?? '';
    expect(tokenValue.length).toBeGreaterThanOrEqual(43);
    const [stored] = await sessionTokenHashes();
    expect(stored).not.toBe(tokenValue);
    expect(await usersWithPhone('13812341234', 2)).toBe(1);
    const me = await callApi('User.GetMineInfo', {}, { cookie: cookieJar(res.setCookies) });
    expect(me.body.P?.phone).toBe('138****1234');
  });

  it('logs an existing phone in without creating a second user', async () => {
    await loginBySms('13800000010');
    await ageSmsCodes(2 * MINUTE_MS);
    await callApi('User.GetCode', { phone: '13800000010' }, { ip: '198.51.100.99' });
    const res = await callApi('User.LoginRegister', {
      phone: '13800000010',
      code: await latestCode('13800000010'),
    });
    expect(res.body.P?.isNew).toBe(false);
    expect(await usersWithPhone('13800000010')).toBe(1);
  });

  it('answers state 2 for an unavailable account and starts no session', async () => {
    await loginBySms('13800000011');
    await disableAccount('13800000011');
    await deleteAllSessions();
    await ageSmsCodes(2 * MINUTE_MS);
    await callApi('User.GetCode', { phone: '13800000011' });
    const res = await callApi('User.LoginRegister', { phone: '13800000011', code: await latestCode('13800000011') });
    expect(res.body).toEqual({ P: { state: 2 } });
    expect(res.setCookies).toEqual([]);
    expect(await sessionCount()).toBe(0);
  });

  it('rejects a wrong code, and kills the code after 5 wrong tries', async () => {
    const phone = '13800000012';
    await callApi('User.GetCode', { phone });
    const code = await latestCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await callApi('User.LoginRegister', { phone, code: wrong });
      expect(res.body.E).toBe('验证码错误或已失效，请重新获取');
    }
    const right = await callApi('User.LoginRegister', { phone, code });
    expect(right.body.E).toBe('验证码错误或已失效，请重新获取');
    expect(await usersWithPhone(phone)).toBe(0);
  });

  it('rejects an expired code', async () => {
    const phone = '13800000013';
    await callApi('User.GetCode', { phone });
    await expireSmsCodes(phone);
    const res = await callApi('User.LoginRegister', { phone, code: await latestCode(phone) });
    expect(res.body.E).toBe('验证码错误或已失效，请重新获取');
  });

  it('lets a code be used once even by concurrent requests', async () => {
    const phone = '13800000014';
    await callApi('User.GetCode', { phone });
    const code = await latestCode(phone);
    const results = await Promise.all(Array.from({ length: 5 }, () => callApi('User.LoginRegister', { phone, code })));
    expect(results.filter((r) => (r.body.P as { state?: number } | undefined)?.state === 1).length).toBe(1);
    expect(await sessionCount()).toBe(1);
  });
});

describe('User.Login (password)', () => {
  const phone = '13800000020';
  async function withPassword() {
    await loginBySms(phone);
    await setUserPassword(phone, 'abc12345');
  }

  it('logs in with the right password', async () => {
    await withPassword();
    const res = await callApi('User.Login', { phone, password: 'abc12345' });
    expect(res.body.P?.state).toBe(1);
    expect(res.setCookies.some((c) => c.startsWith('token='))).toBe(true);
  });

  it('gives one answer for a wrong password and an unknown phone', async () => {
    await withPassword();
    const wrong = await callApi('User.Login', { phone, password: 'nope1234' });
    const unknown = await callApi('User.Login', { phone: '13800000029', password: 'nope1234' });
    expect(wrong.body.E).toBe('手机号或密码错误');
    expect(unknown.body.E).toBe('手机号或密码错误');
  });

  it('locks the account after 5 failures, even for the right password', async () => {
    await withPassword();
    for (let i = 0; i < 4; i++) {
      expect((await callApi('User.Login', { phone, password: 'wrong000' })).body.E).toBe('手机号或密码错误');
    }
    expect((await callApi('User.Login', { phone, password: 'wrong000' })).body.E).toMatch(/已临时锁定/);
    const right = await callApi('User.Login', { phone, password: 'abc12345' });
    expect(right.body.E).toMatch(/已临时锁定/);
    expect(right.setCookies).toEqual([]);
    await lapseLoginLock(phone);
    expect(((await callApi('User.Login', { phone, password: 'abc12345' })).body.P as { state: number }).state).toBe(1);
  });

  it('answers a registered phone without a password like a wrong password (registration is not revealed)', async () => {
    await loginBySms('13800000021');
    const noPassword = await callApi('User.Login', { phone: '13800000021', password: 'abc12345' });
    const unknown = await callApi('User.Login', { phone: '13800000028', password: 'abc12345' });
    expect(noPassword.body.E).toBe('手机号或密码错误');
    expect(noPassword.body).toEqual(unknown.body);
    expect(noPassword.status).toBe(unknown.status);
  });

  it('checks at most 5 passwords under 20 concurrent wrong attempts, then stays locked', async () => {
    await withPassword();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => callApi('User.Login', { phone, password: 'wrong000' })),
    );
    // Only reserved attempts reach the password check: at most 4 plain failures, the 5th locks, the rest are refused.
    expect(results.filter((r) => r.body.E === '手机号或密码错误').length).toBeLessThanOrEqual(4);
    expect(results.every((r) => r.body.E === '手机号或密码错误' || /已临时锁定/.test(r.body.E ?? ''))).toBe(true);
    const row = await findUserByPhone(env.DB, phone);
    expect(row?.failedLogins).toBe(5);
    expect(row?.lockedUntil).toBeGreaterThan(Date.now());
    const right = await callApi('User.Login', { phone, password: 'abc12345' });
    expect(right.body.E).toMatch(/已临时锁定/);
    expect(right.setCookies).toEqual([]);
    // Once the lock lapses the count starts afresh.
    await lapseLoginLock(phone);
    expect((await callApi('User.Login', { phone, password: 'wrong000' })).body.E).toBe('手机号或密码错误');
    const after = await findUserByPhone(env.DB, phone);
    expect(after?.lockedUntil).toBe(0);
    expect(after?.failedLogins).toBe(1);
  });

  it('limits password attempts per client IP to 30 in 15 minutes, even concurrently', async () => {
    await withPassword();
    const ip = '198.51.100.77';
    // Different (unknown) phones, so the per-account lock does not apply.
    const results = await Promise.all(
      Array.from({ length: 34 }, (_, i) =>
        callApi('User.Login', { phone: `139000001${String(i).padStart(2, '0')}`, password: 'wrong000' }, { ip }),
      ),
    );
    expect(results.filter((r) => r.body.E === '手机号或密码错误').length).toBe(30);
    expect(results.filter((r) => r.body.E === '登录尝试过于频繁，请15分钟后再试或使用验证码登录').length).toBe(4);
    // The right password from that IP is refused too; another IP is unaffected; a success does not count.
    expect((await callApi('User.Login', { phone, password: 'abc12345' }, { ip })).body.E).toMatch(/过于频繁/);
    expect(((await callApi('User.Login', { phone, password: 'abc12345' })).body.P as { state: number }).state).toBe(1);
    expect(await loginAttemptsFrom('198.51.100.10')).toBe(0);
  });
});

describe('sessions', () => {
  it('logout deletes the session so the old token stops working', async () => {
    const cookie = await loginBySms('13800000030');
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(200);
    const out = await callApi('User.Logout', {}, { cookie });
    expect(out.setCookies.some((c) => c.startsWith('token=;') && /Max-Age=0/.test(c))).toBe(true);
    expect(out.setCookies.some((c) => c.startsWith('Mine_Info=;') && /Max-Age=0/.test(c))).toBe(true);
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(401);
    expect(await sessionCount()).toBe(0);
  });

  it('expires sessions after 7 idle days and after 30 days in all', async () => {
    const cookie = await loginBySms('13800000031');
    await setSessionsLastSeen(Date.now() - 7 * DAY_MS - 1);
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(401);
    expect(await sessionCount()).toBe(0);

    await ageSmsCodes(2 * MINUTE_MS);
    const cookie2 = await loginBySms('13800000031');
    await setSessionsExpiry(Date.now() - 1);
    expect((await callApi('User.GetMineInfo', {}, { cookie: cookie2 })).status).toBe(401);
  });

  it('ends the sessions of a disabled account', async () => {
    const cookie = await loginBySms('13800000032');
    await disableAccount();
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(401);
  });
});
