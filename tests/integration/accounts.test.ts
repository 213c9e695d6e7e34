import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/crypto';
import { callApi, cookieJar, latestCode, loginBySms, resetDb } from '../helpers/api';

beforeEach(resetDb);

const count = async (sql: string, ...binds: unknown[]) =>
  (
    (await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()) ?? { n: -1 }
  ).n;

describe('User.GetCode', () => {
  it('sends a 6-digit code to the outbox and stores only a hash', async () => {
    const res = await callApi('User.GetCode', { phone: '13800000001' });
    expect(res.body).toEqual({ P: { sent: true } });
    const code = await latestCode('13800000001');
    expect(code).toMatch(/^\d{6}$/);
    const row = await env.DB.prepare('SELECT code_hash, expires_at - created_at AS ttl FROM sms_codes WHERE phone = ?')
      .bind('13800000001')
      .first<{ code_hash: string; ttl: number }>();
    expect(row?.code_hash).not.toContain(code);
    expect(row?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.ttl).toBe(300_000);
  });

  it('gives the same answer for registered and unknown phones', async () => {
    await loginBySms('13800000002', '198.51.100.2');
    await env.DB.prepare('UPDATE sms_codes SET created_at = created_at - 120000').run();
    const known = await callApi('User.GetCode', { phone: '13800000002' }, { ip: '198.51.100.3' });
    const unknown = await callApi('User.GetCode', { phone: '13800000003' }, { ip: '198.51.100.3' });
    expect(known.body).toEqual(unknown.body);
    expect(known.status).toBe(unknown.status);
  });

  it('allows one code per phone per minute', async () => {
    expect((await callApi('User.GetCode', { phone: '13800000004' })).body.P).toBeTruthy();
    const again = await callApi('User.GetCode', { phone: '13800000004' });
    expect(again.body.E).toBe('验证码发送过于频繁，请1分钟后再试');
    expect(await count('SELECT count(*) AS n FROM sms_codes WHERE phone = ?', '13800000004')).toBe(1);
  });

  it('allows 5 per hour and 10 per day per phone', async () => {
    const phone = '13800000005';
    const now = Date.now();
    for (let i = 0; i < 5; i++) {
      await env.DB.prepare(
        "INSERT INTO sms_codes (phone, purpose, code_hash, client_ip, created_at, expires_at) VALUES (?, 'login', 'x', '203.0.113.1', ?, ?)",
      )
        .bind(phone, now - (i + 2) * 60_000, now)
        .run();
    }
    expect((await callApi('User.GetCode', { phone })).body.E).toBe('验证码发送次数过多，请1小时后再试');
    await env.DB.prepare('UPDATE sms_codes SET created_at = created_at - 3600000 WHERE phone = ?').bind(phone).run();
    for (let i = 0; i < 5; i++) {
      await env.DB.prepare(
        "INSERT INTO sms_codes (phone, purpose, code_hash, client_ip, created_at, expires_at) VALUES (?, 'login', 'x', '203.0.113.1', ?, ?)",
      )
        .bind(phone, now - 2 * 3_600_000 - i * 60_000, now)
        .run();
    }
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
    expect(await count('SELECT count(*) AS n FROM sms_codes WHERE phone = ?', '13800000006')).toBe(1);
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
    const stored = await env.DB.prepare('SELECT token_hash FROM sessions').first<{ token_hash: string }>();
    expect(stored?.token_hash).not.toBe(tokenValue);
    expect(await count('SELECT count(*) AS n FROM users WHERE phone = ? AND source_type = 2', '13812341234')).toBe(1);
    const me = await callApi('User.GetMineInfo', {}, { cookie: cookieJar(res.setCookies) });
    expect(me.body.P?.phone).toBe('138****1234');
  });

  it('logs an existing phone in without creating a second user', async () => {
    await loginBySms('13800000010');
    await env.DB.prepare('UPDATE sms_codes SET created_at = created_at - 120000').run();
    await callApi('User.GetCode', { phone: '13800000010' }, { ip: '198.51.100.99' });
    const res = await callApi('User.LoginRegister', {
      phone: '13800000010',
      code: await latestCode('13800000010'),
    });
    expect(res.body.P?.isNew).toBe(false);
    expect(await count('SELECT count(*) AS n FROM users WHERE phone = ?', '13800000010')).toBe(1);
  });

  it('answers state 2 for an unavailable account and starts no session', async () => {
    await loginBySms('13800000011');
    await env.DB.prepare('UPDATE users SET status = 2 WHERE phone = ?').bind('13800000011').run();
    await env.DB.prepare('DELETE FROM sessions').run();
    await env.DB.prepare('UPDATE sms_codes SET created_at = created_at - 120000').run();
    await callApi('User.GetCode', { phone: '13800000011' });
    const res = await callApi('User.LoginRegister', { phone: '13800000011', code: await latestCode('13800000011') });
    expect(res.body).toEqual({ P: { state: 2 } });
    expect(res.setCookies).toEqual([]);
    expect(await count('SELECT count(*) AS n FROM sessions')).toBe(0);
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
    expect(await count('SELECT count(*) AS n FROM users WHERE phone = ?', phone)).toBe(0);
  });

  it('rejects an expired code', async () => {
    const phone = '13800000013';
    await callApi('User.GetCode', { phone });
    await env.DB.prepare('UPDATE sms_codes SET expires_at = ? WHERE phone = ?')
      .bind(Date.now() - 1, phone)
      .run();
    const res = await callApi('User.LoginRegister', { phone, code: await latestCode(phone) });
    expect(res.body.E).toBe('验证码错误或已失效，请重新获取');
  });

  it('lets a code be used once even by concurrent requests', async () => {
    const phone = '13800000014';
    await callApi('User.GetCode', { phone });
    const code = await latestCode(phone);
    const results = await Promise.all(Array.from({ length: 5 }, () => callApi('User.LoginRegister', { phone, code })));
    expect(results.filter((r) => (r.body.P as { state?: number } | undefined)?.state === 1).length).toBe(1);
    expect(await count('SELECT count(*) AS n FROM sessions')).toBe(1);
  });
});

describe('User.Login (password)', () => {
  const phone = '13800000020';
  async function withPassword() {
    await loginBySms(phone);
    await env.DB.prepare('UPDATE users SET password_hash = ? WHERE phone = ?')
      .bind(await hashPassword('abc12345', 1000), phone)
      .run();
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
    await env.DB.prepare('UPDATE users SET locked_until = ? WHERE phone = ?')
      .bind(Date.now() - 1, phone)
      .run();
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
    const row = await env.DB.prepare('SELECT failed_logins, locked_until FROM users WHERE phone = ?')
      .bind(phone)
      .first<{ failed_logins: number; locked_until: number }>();
    expect(row?.failed_logins).toBe(5);
    expect(row?.locked_until).toBeGreaterThan(Date.now());
    const right = await callApi('User.Login', { phone, password: 'abc12345' });
    expect(right.body.E).toMatch(/已临时锁定/);
    expect(right.setCookies).toEqual([]);
    // Once the lock lapses the count starts afresh.
    await env.DB.prepare('UPDATE users SET locked_until = ? WHERE phone = ?')
      .bind(Date.now() - 1, phone)
      .run();
    expect((await callApi('User.Login', { phone, password: 'wrong000' })).body.E).toBe('手机号或密码错误');
    expect(await count('SELECT failed_logins AS n FROM users WHERE phone = ? AND locked_until = 0', phone)).toBe(1);
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
    expect(await count('SELECT count(*) AS n FROM login_attempts WHERE client_ip = ?', '198.51.100.10')).toBe(0);
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
    expect(await count('SELECT count(*) AS n FROM sessions')).toBe(0);
  });

  it('expires sessions after 7 idle days and after 30 days in all', async () => {
    const cookie = await loginBySms('13800000031');
    await env.DB.prepare('UPDATE sessions SET last_seen_at = ?')
      .bind(Date.now() - 7 * 86_400_000 - 1)
      .run();
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(401);
    expect(await count('SELECT count(*) AS n FROM sessions')).toBe(0);

    await env.DB.prepare('UPDATE sms_codes SET created_at = created_at - 120000').run();
    const cookie2 = await loginBySms('13800000031');
    await env.DB.prepare('UPDATE sessions SET expires_at = ?')
      .bind(Date.now() - 1)
      .run();
    expect((await callApi('User.GetMineInfo', {}, { cookie: cookie2 })).status).toBe(401);
  });

  it('ends the sessions of a disabled account', async () => {
    const cookie = await loginBySms('13800000032');
    await env.DB.prepare('UPDATE users SET status = 2').run();
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(401);
  });
});
