// Operator authentication and roles: password then TOTP (enrolled at the first login), rate limits and lockout,
// code replay, the operator cookie's flags and idle timeout, and the registry-wide access rules (customers 403,
// no session 401, roles outside an action's list 403, admin everywhere).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEdgeApp } from '../../src/edge/app';
import { transportKeyFromHex } from '../../src/lib/envelope';
import { OPERATOR_ROLES, roleAllows } from '../../src/lib/operator-roles';
import { isOperatorAccess } from '../../src/server/actions/define';
import { registry } from '../../src/server/actions/registry';
import { OPERATOR_IDLE_MS, totpCodeAt } from '../../src/server/domain/operators';
import { purgeSessionsJob } from '../../src/server/jobs/sessions';
import { callApi, callApiUntyped, cookieJar, loginBySms, resetDb } from '../helpers/api';
import { encryptText } from '../helpers/envelope-reference';
import { ACCOUNT_STATUS } from '../../src/lib/console-states';
import { findOperatorById } from '../../src/server/db/operators';
import { setLegacyUserRole } from '../helpers/accounts';
import {
  auditRows as auditLog,
  createOperatorRow,
  OPERATOR_PASSWORD,
  operatorLogin,
  operatorSessionHolders,
  sealedTotpSecret,
  setOperatorSessionsLastSeen,
  setOperatorStatus,
} from '../helpers/operators';

beforeEach(resetDb);

const auditRows = (operatorId: number) => auditLog({ operatorId });

describe('operator login', { timeout: 30_000 }, () => {
  it('enrols TOTP at the first login, then needs password and a fresh code; the login is audited', async () => {
    const { id, username } = await createOperatorRow('finance');
    const ip = '198.51.100.31';
    const step1 = await callApi('Operator.Login', { username, password: OPERATOR_PASSWORD }, { ip });
    expect(step1.body.P).toEqual({ next: 'enrol' });
    const pending = step1.setCookies.find((c) => c.startsWith('admin_token='));
    expect(pending).toMatch(/HttpOnly/);
    expect(pending).toMatch(/SameSite=Strict/);
    let cookie = cookieJar(step1.setCookies);
    // The pending session is not an operator session yet.
    expect((await callApi('Admin.Dashboard', {}, { cookie, ip })).status).toBe(401);

    const enrol = await callApi('Operator.TotpEnrol', {}, { cookie, ip });
    expect(enrol.body.P?.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(enrol.body.P?.qrSvg).toContain('<svg');
    const secret = enrol.body.P?.secret as string;
    expect((await callApi('Operator.TotpVerify', { code: '000000' }, { cookie, ip })).body.E).toBe(
      '动态验证码错误或已使用，请输入验证器中最新的6位数字',
    );
    const code = totpCodeAt(secret, Date.now());
    const ok = await callApi('Operator.TotpVerify', { code }, { cookie, ip });
    expect(ok.body.P).toMatchObject({ username, role: 'finance' });
    const pendingToken = cookie;
    cookie = cookieJar(ok.setCookies, cookie);
    expect(cookie).not.toBe(pendingToken); // a new token once both factors passed
    expect((await callApi('Admin.Dashboard', {}, { cookie, ip })).status).toBe(200);
    expect((await callApi('Operator.Me', {}, { cookie, ip })).body.P).toMatchObject({ id, role: 'finance' });
    // The old (pending) token is worthless now.
    expect((await callApi('Admin.Dashboard', {}, { cookie: pendingToken, ip })).status).toBe(401);
    const sealed = await sealedTotpSecret(id);
    expect(String(sealed)).not.toContain(secret); // stored sealed, not as the secret

    // Second login: no enrolment; the same code cannot be used twice.
    const again = await callApi('Operator.Login', { username, password: OPERATOR_PASSWORD }, { ip });
    expect(again.body.P).toEqual({ next: 'totp' });
    const c2 = cookieJar(again.setCookies);
    expect((await callApi('Operator.TotpEnrol', {}, { cookie: c2, ip })).body.E).toBe('该账号已绑定动态验证码');
    expect((await callApi('Operator.TotpVerify', { code }, { cookie: c2, ip })).body.E).toMatch(
      /动态验证码错误或已使用/,
    );

    expect((await auditRows(id)).map((r) => r.action)).toEqual([
      'Operator.LoginFailed',
      'Operator.Login',
      'Operator.LoginFailed',
    ]);
    expect((await auditRows(id))[1]).toMatchObject({ role: 'finance', clientIp: ip });
  });

  it('answers the same for unknown users and wrong passwords, and locks after five failures of either factor', async () => {
    const { id, username } = await createOperatorRow('support');
    const ip = '198.51.100.32';
    expect((await callApi('Operator.Login', { username: 'nobody', password: 'x' }, { ip })).body.E).toBe(
      '账号或密码错误',
    );
    for (let i = 0; i < 4; i++) {
      expect((await callApi('Operator.Login', { username, password: 'wrong' }, { ip })).body.E).toBe('账号或密码错误');
    }
    // The fifth failure is a wrong code after a correct password: failures of both factors count together.
    const login = await callApi('Operator.Login', { username, password: OPERATOR_PASSWORD }, { ip });
    const cookie = cookieJar(login.setCookies);
    await callApi('Operator.TotpEnrol', {}, { cookie, ip });
    // A correct password does not clear the count (only a whole login does): the first wrong code is the fifth failure.
    expect((await callApi('Operator.TotpVerify', { code: '000000' }, { cookie, ip })).body.E).toBe(
      '错误次数过多，账号已临时锁定，请15分钟后再试',
    );
    expect((await callApi('Operator.Login', { username, password: OPERATOR_PASSWORD }, { ip })).body.E).toBe(
      '错误次数过多，账号已临时锁定，请15分钟后再试',
    );
    expect((await findOperatorById(env.DB, id))?.lockedUntil).toBeGreaterThan(Date.now());
  });

  it('ends a session idle for longer than the idle timeout and on logout', async () => {
    const op = await operatorLogin('ops');
    expect((await callApi('Admin.Dashboard', {}, { cookie: op.cookie })).status).toBe(200);
    await setOperatorSessionsLastSeen(Date.now() - OPERATOR_IDLE_MS - 1000, op.id);
    expect((await callApi('Admin.Dashboard', {}, { cookie: op.cookie })).status).toBe(401);
    expect((await operatorSessionHolders()).filter((holder) => holder === op.id)).toHaveLength(0);

    const again = await operatorLogin('ops');
    const out = await callApi('Operator.Logout', {}, { cookie: again.cookie });
    expect(out.setCookies.some((c) => c.startsWith('admin_token=;') && /Max-Age=0/.test(c))).toBe(true);
    expect((await callApi('Admin.Dashboard', {}, { cookie: again.cookie })).status).toBe(401);
  });

  it('the daily purge deletes idle operator sessions that were never used again and keeps live ones', async () => {
    const idle = await operatorLogin('ops');
    const live = await operatorLogin('finance');
    const now = Date.now();
    await setOperatorSessionsLastSeen(now - OPERATOR_IDLE_MS - 1000, idle.id);
    const out = await purgeSessionsJob.run(env, now);
    expect(out).toMatchObject({ operatorSessions: 1 });
    expect(await operatorSessionHolders()).toEqual([live.id]);
    expect((await callApi('Admin.Dashboard', {}, { cookie: live.cookie })).status).toBe(200);
  });

  it('refuses a disabled operator at once', async () => {
    const op = await operatorLogin('content');
    await setOperatorStatus(op.id, ACCOUNT_STATUS.disabled);
    expect((await callApi('Admin.Dashboard', {}, { cookie: op.cookie })).status).toBe(401);
  });
});

describe('operator access across the registry', { timeout: 30_000 }, () => {
  const operatorActions = Object.entries(registry).filter(([, a]) => isOperatorAccess(a.access));

  it('covers the migrated and the console actions', () => {
    const names = operatorActions.map(([n]) => n);
    for (const n of [
      'Redirect.List',
      'Redirect.Save',
      'Redirect.Delete',
      'UserPromotion.WithdrawalQueue',
      'UserPromotion.ReviewWithdrawal',
      'Auth.CompanyReviewList',
      'Auth.CompanyReview',
      'Order.RefundByOrderNo',
      'Admin.Dashboard',
      'Admin.SuspendCustomer',
    ]) {
      expect(names).toContain(n);
    }
    // No action is left on a customer role called "operator".
    for (const [, a] of Object.entries(registry)) expect(a.access).not.toBe('operator');
  });

  it('refuses every operator action to a customer session (403) and to nobody (401)', async () => {
    const customer = await loginBySms('13900000071');
    // Even a customer whose old users.role says operator is only a customer.
    await setLegacyUserRole('13900000071', 'operator');
    for (const [name] of operatorActions) {
      const asCustomer = await callApiUntyped(name, {}, { cookie: customer });
      expect(asCustomer.status, name).toBe(403);
      expect((await callApiUntyped(name, {})).status, name).toBe(401);
    }
  });

  it("refuses each role outside an action's list (403) and lets admin and listed roles through", async () => {
    const cookies = new Map(
      await Promise.all(OPERATOR_ROLES.map(async (role) => [role, (await operatorLogin(role)).cookie] as const)),
    );
    for (const [name, action] of operatorActions) {
      if (!isOperatorAccess(action.access)) continue;
      for (const role of OPERATOR_ROLES) {
        // Invalid ids are answered (400) only after the access check, so the probe tells access apart without writes.
        const res = await callApiUntyped(
          name,
          { __probe: true, id: -1, userId: -1, orderNo: 'x' },
          { cookie: cookies.get(role) ?? '' },
        );
        if (roleAllows(role, action.access.operator)) expect(res.status, `${name} as ${role}`).not.toBe(403);
        else expect(res.status, `${name} as ${role}`).toBe(403);
      }
    }
  }, 60_000);
});

describe('operator cookie in production', { timeout: 30_000 }, () => {
  it('is Secure, HttpOnly and SameSite=Strict', async () => {
    const KEY = 'a1'.repeat(32);
    const IV = 'b2'.repeat(16);
    const prodEnv = {
      ...env,
      APP_ENV: 'production',
      API_AES_KEY: KEY,
      API_AES_IV: IV,
      SESSION_SECRET: 'p'.repeat(40),
      CHAT_SIGN_SECRET: 'c'.repeat(40),
      ID_ENCRYPTION_KEY: 'k'.repeat(40),
    };
    const { username } = await createOperatorRow('ops');
    const res = await createEdgeApp().request(
      '/api',
      {
        method: 'POST',
        body: encryptText(
          JSON.stringify({ A: 'Operator.Login', P: { username, password: OPERATOR_PASSWORD } }),
          transportKeyFromHex(KEY, IV),
        ),
        headers: { 'content-type': 'text/plain', 'cf-connecting-ip': '198.51.100.61' },
      },
      prodEnv,
    );
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('admin_token='));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });
});
