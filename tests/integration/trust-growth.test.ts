// Welfare trials, red packets, notices and account settings: one-time rights under concurrency, read state, and
// session revocation after credential changes.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEdgeApp } from '../../src/edge/app';
import { hmacSha256Hex } from '../../src/server/crypto';
import { readConfig } from '../../src/server/env';
import { ageSmsCodes, usersWithPhone } from '../helpers/accounts';
import { BASE, callApi, cookieJar, latestCode, resetDb } from '../helpers/api';
import { addHomeNoticeRow } from '../helpers/content';
import { grantedPackages } from '../helpers/money';
import { operatorCookie } from '../helpers/operators';
import {
  boundIdentityHashes,
  changeRedLaunch,
  freshIp,
  markVerified,
  moveIdentityKey,
  newUser,
  phoneChangeGrantCount,
  redLaunchReceived,
  redRecordCount,
  seedDemoTrust,
  validId,
  verifyPerson,
} from '../helpers/trust';

beforeEach(async () => {
  await resetDb();
  await seedDemoTrust();
});

describe('welfare trial', () => {
  it('needs real-name authentication', async () => {
    const cookie = await newUser('13700000001');
    expect((await callApi('User.WelfareAble', {}, { cookie })).body.P).toEqual({
      able: false,
      reason: 'needsRealName',
    });
    expect((await callApi('Proxy.GiveWelfareMeal', {}, { cookie })).body.E).toBe('请先完成实名认证');
    expect(await grantedPackages('welfare')).toHaveLength(0);
  });

  it('gives exactly one trial package under concurrent claims and refuses later ones', async () => {
    const cookie = await newUser('13700000002');
    await markVerified('13700000002');
    expect((await callApi('User.WelfareAble', {}, { cookie })).body.P).toEqual({ able: true, reason: '' });
    const results = await Promise.all(
      Array.from({ length: 8 }, () => callApi('Proxy.GiveWelfareMeal', {}, { cookie })),
    );
    expect(results.filter((r) => r.body.P).length).toBe(1);
    expect(results.filter((r) => r.body.E === '该实名身份已领取过免费试用').length).toBe(7);
    expect((await grantedPackages('welfare')).map((p) => p.remainingCount)).toEqual([1000]);
    expect((await callApi('User.WelfareAble', {}, { cookie })).body.P).toEqual({ able: false, reason: 'claimed' });
  });

  it('is once per identity, not per account', async () => {
    const a = await newUser('13700000003');
    await markVerified('13700000003', 'same-person');
    expect((await callApi('Proxy.GiveWelfareMeal', {}, { cookie: a })).body.P).toBeTruthy();
    // The same person on another account (identity moved by an operator): still refused.
    await moveIdentityKey('same-person', 'moved');
    const b = await newUser('13700000004');
    await markVerified('13700000004', 'same-person');
    expect((await callApi('Proxy.GiveWelfareMeal', {}, { cookie: b })).body.E).toBe('该实名身份已领取过免费试用');
    expect(await grantedPackages('welfare')).toHaveLength(1);
  });

  it('is once per account when its identity key changes from company to personal', async () => {
    const op = await operatorCookie('support');
    const a = await newUser('13700000005');
    // Company authentication approved: the account claims under its company key.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
    const up = await SELF.fetch(`${BASE}/api/upload/company-licence`, {
      method: 'POST',
      body: png,
      headers: { 'content-type': 'application/octet-stream', cookie: a },
    });
    const licenceId = ((await up.json()) as { P: { id: number } }).P.id;
    const apply = await callApi(
      'Company.Add',
      { companyName: '上海示例科技有限公司', creditCode: '91350100M000100Y43', legalPerson: '张三', licenceId },
      { cookie: a },
    );
    expect(apply.body.P).toMatchObject({ state: 4 });
    const queue = await callApi('Auth.CompanyReviewList', {}, { cookie: op });
    expect(queue.body.P?.list).toHaveLength(1);
    const appId = queue.body.P?.list[0]?.id ?? 0;
    expect((await callApi('Auth.CompanyReview', { id: appId, decision: 'approve' }, { cookie: op })).body.P).toEqual({
      state: 1,
    });
    expect((await callApi('Proxy.GiveWelfareMeal', {}, { cookie: a })).body.P).toBeTruthy();

    // Then the same account passes personal verification: its key becomes id:..., still no second trial.
    const person = validId('701');
    await verifyPerson(a, person);
    expect((await callApi('User.WelfareAble', {}, { cookie: a })).body.P).toEqual({ able: false, reason: 'claimed' });
    const again = await Promise.all(
      Array.from({ length: 4 }, () => callApi('Proxy.GiveWelfareMeal', {}, { cookie: a })),
    );
    expect(again.every((r) => r.body.E === '该实名身份已领取过免费试用')).toBe(true);

    // A second account with the same identity is refused as before: at verification, and for the trial even if the
    // identity later moves to it (operator action), because binding kept the person's key claimed.
    const b = await newUser('13700000006');
    const init = await callApi('Auth.CertifyInit', { name: '张三', idNumber: person }, { cookie: b });
    expect(init.body.P).toBeTruthy();
    await SELF.fetch(`${BASE}/dev/faceverify/${init.body.P?.certifyId}`, {
      method: 'POST',
      body: new URLSearchParams({ verdict: 'T' }),
      redirect: 'manual',
    });
    expect(
      (await callApi('Auth.CertifyResult', { certifyId: init.body.P?.certifyId ?? '' }, { cookie: b })).body.E,
    ).toBe('该身份证已认证其他账号，一个身份只能认证一个账号');
    const [hash = ''] = await boundIdentityHashes();
    await moveIdentityKey(hash, 'moved');
    await markVerified('13700000006', hash);
    expect((await callApi('Proxy.GiveWelfareMeal', {}, { cookie: b })).body.E).toBe('该实名身份已领取过免费试用');
    expect(await grantedPackages('welfare')).toHaveLength(1);
  });
});

describe('red packets', () => {
  it('never hands out more packets than the budget, whatever the concurrency', async () => {
    await changeRedLaunch(1, { budget: 3 });
    const phones = Array.from({ length: 7 }, (_, i) => `1370000010${i}`);
    const cookies: string[] = [];
    for (const p of phones) {
      cookies.push(await newUser(p));
      await markVerified(p);
    }
    const results = await Promise.all(cookies.map((cookie) => callApi('RedLaunch.Receive', { id: 1 }, { cookie })));
    expect(results.filter((r) => r.body.P).length).toBe(3);
    expect(results.filter((r) => r.body.E === '红包已被领完').length).toBe(4);
    expect(await redLaunchReceived(1)).toBe(3);
    expect(await redRecordCount()).toBe(3);
    const info = await callApi('RedLaunch.GetRedLaunch', {});
    expect(info.body.P?.data?.remaining).toBe(0);
  });

  it('lets one user receive a packet once, shows it as new once and turns it into one package', async () => {
    const cookie = await newUser('13700000201');
    await markVerified('13700000201');
    const anon = await callApi('RedLaunch.GetRedLaunch', {});
    expect(anon.body.P?.data).toMatchObject({ id: 1, received: false });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => callApi('RedLaunch.Receive', { id: 1 }, { cookie })),
    );
    expect(results.filter((r) => r.body.P).length).toBe(1);
    expect(results.filter((r) => r.body.E === '您已领取过该红包').length).toBe(5);
    expect(await redLaunchReceived(1)).toBe(1);
    expect((await callApi('RedLaunch.GetRedLaunch', {}, { cookie })).body.P?.data?.received).toBe(true);

    const fresh = await callApi('RedPackage.GetNewRedPackage', {}, { cookie });
    expect(fresh.body.P?.list).toHaveLength(1);
    expect((await callApi('RedPackage.GetNewRedPackage', {}, { cookie })).body.P?.list).toHaveLength(0);

    const recordId = fresh.body.P?.list[0]?.id as number;
    const uses = await Promise.all(
      Array.from({ length: 5 }, () => callApi('Proxy.GetredPackage', { recordId }, { cookie })),
    );
    expect(uses.filter((r) => r.body.P).length).toBe(1);
    expect(await grantedPackages('red_packet')).toHaveLength(1);
    const list = await callApi('RedRecord.GetList', {}, { cookie });
    expect(list.body.P?.list[0]).toMatchObject({ state: 2 });
    expect(list.body.P?.list[0]?.packageId).toBeGreaterThan(0);

    const other = await newUser('13700000202');
    expect((await callApi('Proxy.GetredPackage', { recordId }, { cookie: other })).body.E).toBe('红包不存在或已使用');
    expect((await callApi('RedLaunch.Receive', { id: 1 }, { cookie: other })).body.E).toBe('请先完成实名认证');
  });

  it('refuses launches outside their window', async () => {
    const cookie = await newUser('13700000203');
    await markVerified('13700000203');
    await changeRedLaunch(1, { endsAt: 1 });
    expect((await callApi('RedLaunch.Receive', { id: 1 }, { cookie })).body.E).toBe('红包活动未开始或已结束');
    expect((await callApi('RedLaunch.GetRedLaunch', {})).body.P).toEqual({ data: null });
  });
});

describe('notices', () => {
  it('counts unread notices per user and drops the badge when read', async () => {
    const a = await newUser('13700000301');
    const b = await newUser('13700000302');
    const start = await callApi('Notice.getUnReadCount', {}, { cookie: a });
    expect(start.body.P?.unreadCount).toBe(2);
    const list = await callApi('Notice.getLatestNotice', {}, { cookie: a });
    expect(list.body.P?.list.map((n) => n.isRead)).toEqual([false, false]);
    const first = list.body.P?.list[0]?.id as number;
    expect((await callApi('Notice.ReadNotice', { id: first }, { cookie: a })).body.P).toEqual({ unreadCount: 1 });
    expect((await callApi('Notice.ReadNotice', { id: first }, { cookie: a })).body.P).toEqual({ unreadCount: 1 });
    expect((await callApi('Notice.getUnReadCount', {}, { cookie: b })).body.P?.unreadCount).toBe(2);
    expect((await callApi('Notice.ReadNotice', { id: 999999 }, { cookie: a })).body.E).toBe('公告不存在');
    expect((await callApi('Notice.ReadNotice', { all: true }, { cookie: a })).body.P).toEqual({ unreadCount: 0 });
  });

  it('serves notice HTML as stored (sanitised when written, docs/decisions/096)', async () => {
    await addHomeNoticeRow({
      id: 9200,
      title: 'x',
      html: '<p class="lead">hi</p>',
      startsAt: 1,
      endsAt: 9999999999999,
    });
    const cookie = await newUser('13700000303');
    const list = await callApi('Notice.getLatestNotice', {}, { cookie });
    expect(list.body.P?.list.find((x) => x.id === 9200)?.content).toBe('<p class="lead">hi</p>');
  });
});

describe('account settings', () => {
  it('changes the password with the current one and ends the other sessions', async () => {
    const ip = freshIp();
    const phone = '13700000401';
    const first = await newUser(phone);
    await ageSmsCodes();
    await callApi('User.GetCode', { phone }, { ip });
    const second = cookieJar(
      (await callApi('User.LoginRegister', { phone, code: await latestCode(phone) }, { ip })).setCookies,
    );
    // First set a password by SMS code.
    await ageSmsCodes();
    await callApi('User.GetPhoneCode', { purpose: 'change_pwd' }, { cookie: second, ip });
    const bySms = await callApi(
      'User.ChangePwd',
      { code: await latestCode(phone), newPassword: 'abc12345' },
      { cookie: second, ip },
    );
    expect(bySms.body.P).toMatchObject({ changed: true, sessionsEnded: 1 });
    expect((await callApi('User.GetMineInfo', {}, { cookie: first })).status).toBe(401);

    const weak = await callApi('User.ChangePwd', { oldPassword: 'abc12345', newPassword: 'short' }, { cookie: second });
    expect(weak.body.E).toBe('密码需为8-32位，且同时包含字母和数字');
    expect(
      (await callApi('User.ChangePwd', { oldPassword: 'wrong123', newPassword: 'xyz98765' }, { cookie: second })).body
        .E,
    ).toBe('当前密码错误');
    expect((await callApi('User.ChangePwd', { newPassword: 'xyz98765' }, { cookie: second })).body.E).toBe(
      '请输入当前密码或短信验证码',
    );
    expect(
      (await callApi('User.ChangePwd', { oldPassword: 'abc12345', newPassword: 'xyz98765' }, { cookie: second })).body
        .P,
    ).toMatchObject({ changed: true });
    expect((await callApi('User.Login', { phone, password: 'xyz98765' })).body.P).toMatchObject({ state: 1 });
  });

  it('changes the phone only after the old phone and then the new one are verified', async () => {
    const ip = freshIp();
    const cookie = await newUser('13700000501');
    const other = await newUser('13700000502');
    expect(
      (await callApi('User.GetPhoneCode', { purpose: 'change_phone_new', phone: '13700000599' }, { cookie, ip })).body
        .E,
    ).toBe('请先验证原手机号');
    expect(
      (await callApi('User.ChangePhone', { step: 'new', phone: '13700000599', code: '123456' }, { cookie, ip })).body.E,
    ).toBe('请先验证原手机号');

    await ageSmsCodes();
    await callApi('User.GetPhoneCode', { purpose: 'change_phone_old' }, { cookie, ip });
    expect(
      (await callApi('User.ChangePhone', { step: 'old', code: await latestCode('13700000501') }, { cookie, ip })).body
        .P,
    ).toMatchObject({ verified: true });
    expect(
      (await callApi('User.GetPhoneCode', { purpose: 'change_phone_new', phone: '13700000502' }, { cookie, ip })).body
        .E,
    ).toBe('该手机号已注册其他账号');
    await callApi('User.GetPhoneCode', { purpose: 'change_phone_new', phone: '13700000599' }, { cookie, ip });
    const done = await callApi(
      'User.ChangePhone',
      { step: 'new', phone: '13700000599', code: await latestCode('13700000599') },
      { cookie, ip },
    );
    expect(done.body.P).toMatchObject({ changed: true });
    expect(await usersWithPhone('13700000599')).toBe(1);
    expect(await usersWithPhone('13700000501')).toBe(0);
    expect(await phoneChangeGrantCount()).toBe(0);
    expect((await callApi('User.GetMineInfo', {}, { cookie: other })).status).toBe(200);
  });

  it('keeps the auto-replace switch and signs the user for customer service', async () => {
    const cookie = await newUser('13700000601');
    expect((await callApi('User.IsAutoReplace', {}, { cookie })).body.P).toEqual({ isAutoReplace: false });
    expect((await callApi('User.IsAutoReplace', { value: true }, { cookie })).body.P).toEqual({ isAutoReplace: true });
    const sign = await callApi('User.getUserSign', {}, { cookie });
    expect(sign.body.P?.sign).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs for customer service with CHAT_SIGN_SECRET, never with the SMS-code key', async () => {
    const cookie = await newUser('13700000602');
    type Sign = { userId: number; timestamp: number; sign: string };
    const dev = (await callApi('User.getUserSign', {}, { cookie })).body.P as Sign;
    const config = readConfig({ ...env });
    const message = `user-sign:${dev.userId}:${dev.timestamp}`;
    expect(dev.sign).toBe(await hmacSha256Hex(config.chatSignSecret, message));
    expect(dev.sign).not.toBe(await hmacSha256Hex(config.sessionSecret, message));
    // A configured binding is what signs.
    const secret = 'chat-sign-secret-for-this-test-0123456789';
    const res = await createEdgeApp().request(
      '/api',
      {
        method: 'POST',
        body: JSON.stringify({ A: 'User.getUserSign', P: {} }),
        headers: { 'content-type': 'application/json', cookie, 'cf-connecting-ip': '198.51.100.10' },
      },
      { ...env, CHAT_SIGN_SECRET: secret },
    );
    const signed = ((await res.json()) as { P: Sign }).P;
    expect(signed.sign).toBe(await hmacSha256Hex(secret, `user-sign:${signed.userId}:${signed.timestamp}`));
  });
});
