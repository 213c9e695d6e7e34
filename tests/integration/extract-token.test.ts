// GET /extract with an AES token instead of the bare key (docs/decisions/045), and the proxy account actions.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_STATUS } from '../../src/lib/console-states';
import { makeExtractToken } from '../../src/server/domain/extract-token';
import { ageProxyCredentials, setAccountStatus } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import {
  allowIp,
  extractCall,
  extractLogs,
  feedCount,
  leaseCount,
  makePackage,
  makeUser,
  remainingCount,
  simplePool,
  spentTokenCount,
} from '../helpers/delivery';

const AES_KEY = 'aeskey0000000001'; // makeUser's AES Key and IV
const AES_IV = 'aesiv00000000001';

beforeEach(async () => {
  await resetDb();
  await simplePool(5);
});

async function ready() {
  const u = await makeUser();
  await makePackage(u.id, { remaining: 100 });
  await allowIp(u.id, '192.0.2.50');
  return u;
}

describe('/extract with uid + token', () => {
  it('accepts a fresh token once, charges the package and does not log the token', async () => {
    const u = await ready();
    const token = await makeExtractToken(AES_KEY, AES_IV, u.key, Date.now());
    const ok = await extractCall({ uid: u.id, token, num: 2, sep: 4 });
    expect(ok.status).toBe(200);
    expect(ok.text.split('|')).toHaveLength(2);
    expect(await remainingCount(u.id)).toBe(98);
    const [logged] = await extractLogs({ userId: u.id });
    expect(logged?.query).not.toContain('token');
    expect(logged?.query).toContain('uid=');

    const again = await extractCall({ uid: u.id, token, num: 2, format: 'json' });
    expect(again.status).toBe(401);
    expect(JSON.parse(again.text)).toMatchObject({ code: 1010, msg: '令牌已使用：每个令牌只能使用一次，请重新生成' });
    expect(await remainingCount(u.id)).toBe(98);
  });

  it('accepts URL-safe Base64 too', async () => {
    const u = await ready();
    const token = (await makeExtractToken(AES_KEY, AES_IV, u.key, Date.now())).replace(/\+/g, '-').replace(/\//g, '_');
    expect((await extractCall({ uid: u.id, token })).status).toBe(200);
  });

  it('refuses expired, future, forged and mismatched tokens with clear codes, charging nothing', async () => {
    const u = await ready();
    const other = await ready();
    const now = Date.now();
    const cases: [Record<string, string | number>, number][] = [
      [{ uid: u.id, token: await makeExtractToken(AES_KEY, AES_IV, u.key, now - 6 * 60_000) }, 1009],
      [{ uid: u.id, token: await makeExtractToken(AES_KEY, AES_IV, u.key, now + 6 * 60_000) }, 1009],
      // Wrong AES key: the padding check or the JSON fails.
      [{ uid: u.id, token: await makeExtractToken('aeskey0000000002', AES_IV, u.key, now) }, 1008],
      // Right AES key, wrong extraction key inside.
      [{ uid: u.id, token: await makeExtractToken(AES_KEY, AES_IV, `${u.key.slice(0, -1)}y`, now) }, 1008],
      // Another account's valid token under this uid.
      [{ uid: u.id, token: await makeExtractToken(AES_KEY, AES_IV, other.key, now) }, 1008],
      [{ uid: 999999, token: await makeExtractToken(AES_KEY, AES_IV, u.key, now) }, 1008],
      [{ uid: 'abc', token: 'AAAA' }, 1008],
      [{ uid: u.id, token: 'not base64!' }, 1008],
      [{ uid: u.id, token: '' }, 1008],
    ];
    for (const [query, code] of cases) {
      const res = await extractCall({ ...query, format: 'json' });
      expect(res.status, JSON.stringify(query)).toBe(401);
      expect(JSON.parse(res.text).code, JSON.stringify(query)).toBe(code);
    }
    expect(await leaseCount()).toBe(0);
    expect(await remainingCount()).toBe(200);
    expect(await spentTokenCount()).toBe(0);
  });

  it('refuses a suspended account’s token as invalid', async () => {
    const u = await ready();
    await setAccountStatus(ACCOUNT_STATUS.disabled, u.id);
    const res = await extractCall({
      uid: u.id,
      token: await makeExtractToken(AES_KEY, AES_IV, u.key, Date.now()),
      format: 'json',
    });
    expect(JSON.parse(res.text).code).toBe(1008);
  });
});

describe('proxy account actions', () => {
  it('shows the account, rotates the password at most once a minute, and the key reset leaves it alone', async () => {
    const cookie = await loginBySms('13800005678');
    const first = await callApi('Proxy.GetProxyAccount', {}, { cookie });
    expect(first.body.P?.username).toMatch(/^u[a-z0-9]{9}$/);
    expect(first.body.P?.password).toMatch(/^[a-z0-9]{16}$/);
    // Created with the credentials a moment ago: the first rotation waits for the minute.
    const tooSoon = await callApi('Proxy.ResetProxyPassword', {}, { cookie });
    expect(tooSoon.body.E).toBe('代理密码重置过于频繁，请1分钟后再试');
    await ageProxyCredentials();
    const rotated = await callApi('Proxy.ResetProxyPassword', {}, { cookie });
    expect(rotated.body.P?.username).toBe(first.body.P?.username);
    expect(rotated.body.P?.password).not.toBe(first.body.P?.password);
    expect((await callApi('Proxy.GetProxyAccount', {}, { cookie })).body.P).toEqual(rotated.body.P);
    expect((await callApi('Proxy.ResetProxyPassword', {}, { cookie })).body.E).toBe(
      '代理密码重置过于频繁，请1分钟后再试',
    );
    const feed = await feedCount('u', first.body.P?.uid);
    expect(feed).toBeGreaterThan(0);
  });
});
