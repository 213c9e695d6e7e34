// Company authentication: the licence upload (type, size, origin, session), the application and the operator's
// review with its audit trail and identity labels.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { userIdOf } from '../helpers/accounts';
import { BASE, callApi, resetDb } from '../helpers/api';
import { operatorCookie } from '../helpers/operators';
import { companyEventCount, licenceUploadCount, newestCompanyApplication, newUser } from '../helpers/trust';
import { COMPANY_STATE } from '../../src/lib/company-states';

beforeEach(resetDb);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const CREDIT = '91350100M000100Y43';

const upload = (body: BodyInit, cookie?: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`${BASE}/api/upload/company-licence`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream', ...(cookie ? { cookie } : {}), ...headers },
  });

async function r2Count(): Promise<number> {
  return (await env.FILES.list({ prefix: 'private/company-licence/' })).objects.length;
}

describe('licence upload', () => {
  it('stores a PNG privately and refuses oversize, non-image, cross-site and anonymous uploads', async () => {
    const cookie = await newUser('13600000001');
    const ok = await upload(PNG, cookie);
    expect(ok.status).toBe(200);
    const { P } = (await ok.json()) as { P: { id: number; mime: string } };
    expect(P.mime).toBe('image/png');
    expect(await r2Count()).toBe(1);

    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    const tooBig = await upload(big, cookie);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toEqual({ E: '营业执照图片不能超过5MB' });

    const svg = await upload('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', cookie, {
      'content-type': 'image/png',
    });
    expect(svg.status).toBe(415);
    expect(await svg.json()).toEqual({ E: '请上传JPG、PNG或WEBP格式的营业执照图片' });
    expect((await upload(new Uint8Array(), cookie)).status).toBe(415);

    expect((await upload(PNG, cookie, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await upload(PNG)).status).toBe(401);

    expect(await r2Count()).toBe(1);
    expect(await licenceUploadCount()).toBe(1);

    // Only the owner (or an operator) can see it, never with a cacheable answer.
    const mine = await SELF.fetch(`${BASE}/api/upload/company-licence/${P.id}`, { headers: { cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toContain('no-store');
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(PNG);
    const other = await newUser('13600000002');
    expect(
      (await SELF.fetch(`${BASE}/api/upload/company-licence/${P.id}`, { headers: { cookie: other } })).status,
    ).toBe(404);
  });
});

describe('licence upload limit', () => {
  it('allows 20 uploads an hour even when they arrive concurrently, and failed uploads do not count', async () => {
    const cookie = await newUser('13600000011');
    // Refused bodies give their reservation back.
    expect((await upload('not an image', cookie)).status).toBe(415);
    const results = await Promise.all(Array.from({ length: 26 }, () => upload(PNG, cookie)));
    expect(results.filter((r) => r.status === 200).length).toBe(20);
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBe(6);
    expect(await refused[0]?.json()).toEqual({ E: '请求过于频繁，请稍后再试' });
    expect(await licenceUploadCount()).toBe(20);
    expect(await licenceUploadCount(true)).toBe(0);
    const userId = await userIdOf('13600000011');
    expect((await env.FILES.list({ prefix: `private/company-licence/${userId}/` })).objects.length).toBe(20);
    // Another user is not affected.
    expect((await upload(PNG, await newUser('13600000012'))).status).toBe(200);
  });
});

describe('company application and review', () => {
  async function apply(cookie: string) {
    const up = (await (await upload(PNG, cookie)).json()) as { P: { id: number } };
    return callApi(
      'Company.Add',
      { companyName: '上海示例科技有限公司', creditCode: CREDIT, legalPerson: '张三', licenceId: up.P.id },
      { cookie },
    );
  }

  it('goes pending, then the operator approves it and the label becomes 企业已认证', async () => {
    const cookie = await newUser('13600000003');
    expect(
      (
        await callApi(
          'Company.Add',
          { companyName: '上海示例科技有限公司', creditCode: '91350100M000100Y44', legalPerson: '张三', licenceId: 1 },
          { cookie },
        )
      ).body.E,
    ).toBe('统一社会信用代码格式或校验位不正确');
    expect((await apply(cookie)).body.P).toMatchObject({ state: 4 });
    expect((await apply(cookie)).body.E).toBe('企业认证审核中，请耐心等待');
    const pending = await callApi('User.GetMineInfo', {}, { cookie });
    expect(pending.body.P?.identityLabel).toBe('未认证');
    expect((await callApi('Auth.remarkCompanyAuth', { remark: '请尽快审核' }, { cookie })).body.P).toEqual({
      saved: true,
    });

    const id = await newestCompanyApplication();
    // A plain user may not review.
    expect((await callApi('Auth.CompanyReview', { id, decision: 'approve' }, { cookie })).status).toBe(403);

    const op = await operatorCookie('support');
    const queue = await callApi('Auth.CompanyReviewList', {}, { cookie: op });
    expect(queue.body.P?.list).toMatchObject([{ id, userRemark: '请尽快审核' }]);
    expect(
      (await callApi('Auth.CompanyReview', { id, decision: 'approve', remark: '资料齐全' }, { cookie: op })).body.P,
    ).toEqual({ state: 1 });
    expect((await callApi('Auth.CompanyReview', { id, decision: 'reject' }, { cookie: op })).body.E).toBe(
      '该申请状态已变化，请刷新后重试',
    );

    const mine = await callApi('User.GetMineInfo', {}, { cookie });
    expect(mine.body.P).toMatchObject({ identityLabel: '企业已认证', isCompanyAuth: true });
    const result = await callApi('Auth.CompanyCertifyResult', {}, { cookie });
    expect(result.body.P).toMatchObject({ state: 1, reviewRemark: '资料齐全' });
    expect(await companyEventCount({ from: COMPANY_STATE.pending, to: COMPANY_STATE.approved })).toBe(1);

    // The same company cannot be approved for a second account.
    const other = await newUser('13600000004');
    expect((await apply(other)).body.E).toBe('该企业已认证其他账号');
  });

  it('shows states 2 and 3 as individual-authenticated and 5 as not authenticated', async () => {
    const op = await operatorCookie('support');
    const a = await newUser('13600000005');
    await apply(a);
    const idA = await newestCompanyApplication();
    await callApi('Auth.CompanyReview', { id: idA, decision: 'individual' }, { cookie: op });
    expect((await callApi('User.GetMineInfo', {}, { cookie: a })).body.P?.identityLabel).toBe('个人已认证');

    const b = await newUser('13600000006');
    expect((await apply(b)).body.P).toMatchObject({ state: 4 });
    const idB = await newestCompanyApplication();
    await callApi('Auth.CompanyReview', { id: idB, decision: 'reject', remark: '执照不清晰' }, { cookie: op });
    expect((await callApi('User.GetMineInfo', {}, { cookie: b })).body.P?.identityLabel).toBe('未认证');
    // Rejected applicants may apply again.
    expect((await apply(b)).body.P).toMatchObject({ state: 4 });
    await callApi('Auth.CompanyReview', { id: await newestCompanyApplication(), decision: 'approve' }, { cookie: op });
    await callApi('Auth.CompanyReview', { id: await newestCompanyApplication(), decision: 'revoke' }, { cookie: op });
    expect((await callApi('User.GetMineInfo', {}, { cookie: b })).body.P?.identityLabel).toBe('个人已认证');
  });
});
