import { SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { smsCodeCount } from '../helpers/accounts';
import { encryptText } from '../helpers/envelope-reference';
import { BASE, callApi, callApiUntyped, loginBySms, resetDb, tk } from '../helpers/api';

beforeEach(resetDb);

const post = (body: BodyInit, headers: Record<string, string>) =>
  SELF.fetch(`${BASE}/api`, { method: 'POST', body, headers });

describe('POST /api dispatcher', () => {
  it('answers {P} in JSON mode and {P} encrypted in AES mode', async () => {
    for (const mode of ['json', 'aes'] as const) {
      const res = await callApi('User.Logout', {}, { mode });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ P: { loggedOut: true } });
      expect(res.headers.get('content-type')).toContain(mode === 'aes' ? 'text/plain' : 'application/json');
    }
  });

  it('refuses an unknown action with 404 and a Chinese E', async () => {
    for (const mode of ['json', 'aes'] as const) {
      const res = await callApiUntyped('Nope.Nothing', {}, { mode });
      expect(res.status).toBe(404);
      expect(res.body.E).toBe('未知的接口：Nope.Nothing');
    }
  });

  it('refuses inherited object keys as action names', async () => {
    const res = await callApiUntyped('Object.constructor', {});
    expect(res.status).toBe(404);
  });

  it('refuses a malformed JSON body, a non-object and a missing A', async () => {
    for (const body of ['{not json', '[]', '{"P":{}}', '{"A":"bad name"}', '']) {
      const res = await post(body, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ E: '请求格式错误，无法解析' });
    }
  });

  it('refuses undecryptable AES bodies with an encrypted E', async () => {
    for (const body of ['bm90IGNpcGhlcnRleHQ=', '!!!', encryptText('not json', tk)]) {
      const res = await post(body, { 'content-type': 'text/plain' });
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(JSON.parse((await import('../helpers/envelope-reference')).decryptText(text, tk))).toEqual({
        E: '请求格式错误，无法解析',
      });
    }
  });

  it('refuses an oversize body with 413 whether or not Content-Length is declared', async () => {
    const big = JSON.stringify({ A: 'User.GetCode', P: { phone: '1'.repeat(70_000) } });
    const declared = await post(big, { 'content-type': 'application/json' });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ E: '请求内容过大' });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const chunked = await SELF.fetch(`${BASE}/api`, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      // @ts-expect-error duplex is required for streamed request bodies
      duplex: 'half',
    });
    expect(chunked.status).toBe(413);
  });

  it('refuses cross-site requests and accepts the portal origin', async () => {
    const cross = await callApi('User.Logout', {}, { headers: { origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    expect(cross.body.E).toBe('非法的请求来源');
    const fetchSite = await callApi('User.Logout', {}, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(fetchSite.status).toBe(403);
    const own = await callApi('User.Logout', {}, { headers: { origin: BASE } });
    expect(own.status).toBe(200);
  });

  it('checks the source-type header', async () => {
    expect((await callApi('User.Logout', {}, { headers: { 'source-type': '2' } })).status).toBe(200);
    const bad = await callApi('User.Logout', {}, { headers: { 'source-type': '9' } });
    expect(bad.status).toBe(400);
    expect(bad.body.E).toBe('来源类型无效');
  });

  it('answers 401 with the login-expired text for user actions without a session', async () => {
    for (const mode of ['json', 'aes'] as const) {
      const res = await callApi('User.GetMineInfo', {}, { mode });
      expect(res.status).toBe(401);
      expect(res.body.E).toBe('登录已过期，请重新登录');
    }
    const forged = await callApi('User.GetMineInfo', {}, { cookie: 'token=forged-token-value' });
    expect(forged.status).toBe(401);
  });

  it('answers 400 with the schema message for invalid input, and changes nothing', async () => {
    const res = await callApi('User.GetCode', { phone: '12345' });
    expect(res.status).toBe(400);
    expect(res.body.E).toBe('请输入正确的11位手机号');
    const wrongType = await callApiUntyped('User.GetCode', { phone: 13800138000 });
    expect(wrongType.status).toBe(400);
    expect(await smsCodeCount()).toBe(0);
  });

  it('refuses GET and other methods', async () => {
    const res = await SELF.fetch(`${BASE}/api`);
    expect(res.status).toBe(405);
  });

  it('forbids operator actions to ordinary users with 403', async () => {
    const cookie = await loginBySms('13900000001');
    const res = await callApi('Redirect.List', {}, { cookie });
    expect(res.status).toBe(403);
  });
});
