// Personal real-name authentication through the development simulator: the happy path, forged results, one identity
// per account (also under a race), invalid ID numbers and the simulator's absence in production.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEdgeApp } from '../../src/edge/app';
import { readConfig } from '../../src/server/env';
import { faceVerifyProviderFor } from '../../src/server/providers/realname';
import { BASE, callApi, callApiUntyped, resetDb } from '../helpers/api';
import {
  addSimulatorSession,
  boundIdentityCount,
  identityStorageText,
  newUser,
  simulatorSessionCount,
  simulatorVerdict,
  takenVerificationCount,
  validId,
  verificationCount,
  verifiedUserCount,
  verifyPerson,
} from '../helpers/trust';

beforeEach(resetDb);

describe('personal real-name authentication', () => {
  it('verifies through the simulator, stores the identity encrypted and labels the account', async () => {
    const cookie = await newUser('13500000001');
    const id = validId('201');
    const init = await callApi('Auth.CertifyInit', { name: '李四', idNumber: id }, { cookie });
    expect(init.body.P?.certifyUrl).toBe(`${BASE}/dev/faceverify/${init.body.P?.certifyId}`);
    const certifyId = init.body.P?.certifyId as string;

    const page = await SELF.fetch(`${BASE}/dev/faceverify/${certifyId}`);
    expect(await page.text()).toContain('*四');

    const early = await callApi('Auth.CertifyResult', { certifyId }, { cookie });
    expect(early.body.E).toBe('尚未完成人脸核验，请完成后再查询结果');

    const back = await simulatorVerdict(certifyId, 'T');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toContain(`/personalCenter/realNameAuth/auth?`);
    expect(back.headers.get('location')).toContain(`certifyId=${certifyId}`);

    const result = await callApi('Auth.CertifyResult', { certifyId }, { cookie });
    expect(result.body.P).toMatchObject({ passed: true, idNumber: `${id.slice(0, 4)}**********${id.slice(-4)}` });
    const mine = await callApi('User.GetMineInfo', {}, { cookie });
    expect(mine.body.P).toMatchObject({ identityLabel: '个人已认证', isIdentityAuth: true });

    const { identityRows, text: dump } = await identityStorageText();
    expect(identityRows).toBe(1);
    expect(dump).not.toContain(id);
    expect(dump).not.toContain('李四');

    const info = await callApi('Auth.CompanyAuthResult', {}, { cookie });
    expect(info.body.P?.identity?.idNumber).toMatch(/^4403\*{10}\d{3}[\dX]$/);
    // Already verified: no second attempt.
    expect((await callApi('Auth.CertifyInit', { name: '李四', idNumber: id }, { cookie })).body.E).toBe(
      '您已完成实名认证',
    );
  });

  it('never trusts the client: a failed verdict, a foreign certifyId or an invented one change nothing', async () => {
    const alice = await newUser('13500000002');
    const bob = await newUser('13500000003');
    const init = await callApi('Auth.CertifyInit', { name: '王五', idNumber: validId('202') }, { cookie: alice });
    const certifyId = init.body.P?.certifyId as string;
    await simulatorVerdict(certifyId, 'F');
    const forged = await callApiUntyped(
      'Auth.CertifyResult',
      { certifyId, passed: true, Passed: 'T' },
      { cookie: alice },
    );
    expect(forged.body.E).toBe('人脸核验未通过，请确认是本人操作后重试');
    // A later "pass" on the simulator cannot revive the decided attempt.
    await simulatorVerdict(certifyId, 'T');
    expect((await callApi('Auth.CertifyResult', { certifyId }, { cookie: alice })).body.E).toBe(
      '人脸核验未通过，请确认是本人操作后重试',
    );

    const bobInit = await callApi('Auth.CertifyInit', { name: '赵六', idNumber: validId('203') }, { cookie: bob });
    await simulatorVerdict(bobInit.body.P?.certifyId as string, 'T');
    const stolen = await callApi(
      'Auth.CertifyResult',
      { certifyId: bobInit.body.P?.certifyId ?? '' },
      { cookie: alice },
    );
    expect(stolen.body.E).toBe('认证记录不存在，请重新发起认证');
    expect((await callApi('Auth.CertifyResult', { certifyId: 'simforged' }, { cookie: alice })).body.E).toBe(
      '认证记录不存在，请重新发起认证',
    );

    expect(await verifiedUserCount()).toBe(0);
    expect(await boundIdentityCount()).toBe(0);
  });

  it('refuses a second account with the same ID number, telling it only after the face step', async () => {
    const id = validId('204');
    const first = await newUser('13500000004');
    await verifyPerson(first, id);
    const second = await newUser('13500000005');
    // Starting reveals nothing: a bound ID number starts like a free one (and costs one of the day's attempts).
    const init = await callApi('Auth.CertifyInit', { name: '张三', idNumber: id.toLowerCase() }, { cookie: second });
    expect(init.body.E).toBeUndefined();
    await simulatorVerdict(init.body.P?.certifyId as string, 'T');
    const refused = await callApi(
      'Auth.CertifyResult',
      { certifyId: init.body.P?.certifyId ?? '' },
      { cookie: second },
    );
    expect(refused.body.E).toBe('该身份证已认证其他账号，一个身份只能认证一个账号');
    expect(await verifiedUserCount()).toBe(1);
    expect(await takenVerificationCount()).toBe(1);
  });

  it('is no ID-number oracle: a bound number answers like a free one and every probe counts, even concurrently', async () => {
    const owner = await newUser('13500000010');
    const taken = validId('210');
    await verifyPerson(owner, taken);
    const prober = await newUser('13500000011');
    const start = (idNumber: string) => callApi('Auth.CertifyInit', { name: '张三', idNumber }, { cookie: prober });
    const boundAnswer = await start(taken);
    const freeAnswer = await start(validId('211'));
    expect(Object.keys(boundAnswer.body)).toEqual(Object.keys(freeAnswer.body));
    expect(boundAnswer.body.P).toMatchObject({ certifyId: expect.any(String), certifyUrl: expect.any(String) });
    // Five starts a day whatever the numbers; concurrent starts cannot slip past the limit.
    const more = await Promise.all(['212', '213', '214', '215', '216', '217'].map((s) => start(validId(s))));
    expect(more.filter((r) => r.body.P).length).toBe(3);
    expect(more.filter((r) => r.body.E === '今日认证次数过多，请明天再试').length).toBe(3);
    expect((await start(taken)).body.E).toBe('今日认证次数过多，请明天再试');
    expect(await verificationCount({ phone: '13500000011' })).toBe(5);
  });

  it('binds one identity to exactly one account when two accounts finish at the same time', async () => {
    const id = validId('205');
    const cookies = await Promise.all(['13500000006', '13500000007', '13500000008'].map(newUser));
    const certifyIds: string[] = [];
    for (const cookie of cookies) {
      const init = await callApi('Auth.CertifyInit', { name: '张三', idNumber: id }, { cookie });
      certifyIds.push(init.body.P?.certifyId as string);
      await simulatorVerdict(init.body.P?.certifyId as string, 'T');
    }
    const results = await Promise.all(
      cookies.map((cookie, i) => callApi('Auth.CertifyResult', { certifyId: certifyIds[i] ?? '' }, { cookie })),
    );
    expect(results.filter((r) => r.body.P).length).toBe(1);
    expect(results.filter((r) => r.body.E === '该身份证已认证其他账号，一个身份只能认证一个账号').length).toBe(2);
    expect(await verifiedUserCount()).toBe(1);
    expect(await boundIdentityCount()).toBe(1);
  });

  it('validates the name and the ID number checksum before calling the provider', async () => {
    const cookie = await newUser('13500000009');
    const bad = validId('206').slice(0, 17) + (validId('206').endsWith('1') ? '2' : '1');
    expect((await callApi('Auth.CertifyInit', { name: '张三', idNumber: bad }, { cookie })).body.E).toBe(
      '身份证号码格式或校验位不正确',
    );
    expect((await callApi('Auth.CertifyInit', { name: 'Tom', idNumber: validId('206') }, { cookie })).body.E).toBe(
      '请输入与身份证一致的真实姓名',
    );
    expect((await callApi('Auth.CertifyInit', { name: '张三', idNumber: '123' }, { cookie })).status).toBe(400);
    expect(await verificationCount()).toBe(0);
    expect(await simulatorSessionCount()).toBe(0);
  });

  it('needs a session', async () => {
    expect((await callApi('Auth.CertifyInit', { name: '张三', idNumber: validId('207') })).status).toBe(401);
  });
});

describe('the simulator in production', () => {
  const prodEnv = {
    ...env,
    APP_ENV: 'production',
    API_AES_KEY: 'a1'.repeat(32),
    API_AES_IV: 'b2'.repeat(16),
    SESSION_SECRET: 'p'.repeat(40),
    CHAT_SIGN_SECRET: 'c'.repeat(40),
  };

  it('is never chosen and its pages do not exist', async () => {
    const withKey = { ...prodEnv, ID_ENCRYPTION_KEY: 'k'.repeat(40), FACE_VERIFY_PROVIDER: undefined };
    const config = readConfig(withKey);
    expect(config.identity.faceProvider).toBe('aliyun');
    expect(() => faceVerifyProviderFor(withKey, config, Date.now)).toThrow(/not configured/);
    const configured = {
      ...withKey,
      ALIYUN_ACCESS_KEY_ID: 'id',
      ALIYUN_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_FACE_SCENE_ID: '1000',
    };
    expect(faceVerifyProviderFor(configured, readConfig(configured), Date.now).name).toBe('aliyun');
    expect(() => readConfig({ ...withKey, FACE_VERIFY_PROVIDER: 'simulator' }).identity).toThrow();
    expect(() => readConfig({ ...prodEnv, ID_ENCRYPTION_KEY: undefined }).identity).toThrow(/ID_ENCRYPTION_KEY/);

    await addSimulatorSession('simx', '*三');
    const app = createEdgeApp();
    expect((await app.request('/dev/faceverify/simx', {}, prodEnv)).status).toBe(404);
    const post = await app.request(
      '/dev/faceverify/simx',
      { method: 'POST', body: new URLSearchParams({ verdict: 'T' }) },
      prodEnv,
    );
    expect(post.status).toBe(404);
    expect(await simulatorSessionCount(true)).toBe(0);
  });
});
