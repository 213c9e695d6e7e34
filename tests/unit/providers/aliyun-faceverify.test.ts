import { describe, expect, it } from 'vitest';
import { createAliyunFaceVerify } from '../../../src/server/providers/realname/aliyun';

const SECRET = 'cloudauth-secret-never-leak';
const NOW = Date.UTC(2025, 5, 1, 8, 30, 0);
const AUTH_RE =
  /^ACS3-HMAC-SHA256 Credential=LTAI-face-id,SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version,Signature=[0-9a-f]{64}$/;

function fakeFetch(...bodies: { status?: number; body: unknown }[]) {
  const requests: Request[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    const next = bodies[Math.min(requests.length - 1, bodies.length - 1)] ?? { body: {} };
    return new Response(JSON.stringify(next.body), { status: next.status ?? 200 });
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

function provider(fetch: typeof globalThis.fetch, productCode?: 'ID_PRO' | 'PV_FV') {
  return createAliyunFaceVerify({
    accessKeyId: 'LTAI-face-id',
    accessKeySecret: SECRET,
    sceneId: 1000000006,
    fetch,
    now: () => NOW,
    ...(productCode ? { productCode } : {}),
  });
}

const initReq = {
  outerOrderNo: 'e0c34a77f5ac40a5aa5e6ed20c353888',
  certName: '张三',
  certNo: '330103199001011234',
  returnUrl: 'https://portal.example.cn/realname/return?x=1&y=2',
  metaInfo: '{"zimVer":"3.0.0","appVersion":"1","deviceType":"h5"}',
};

function expectSigned(req: Request, action: string) {
  const url = new URL(req.url);
  expect(req.method).toBe('POST');
  expect(url.protocol).toBe('https:');
  expect(url.host).toBe('cloudauth.aliyuncs.com');
  expect(req.headers.get('x-acs-action')).toBe(action);
  expect(req.headers.get('x-acs-version')).toBe('2019-03-07');
  expect(req.headers.get('x-acs-date')).toBe('2025-06-01T08:30:00Z');
  expect(req.headers.get('x-acs-signature-nonce')).toMatch(/^[0-9a-f]{32}$/);
  expect(req.headers.get('x-acs-content-sha256')).toMatch(/^[0-9a-f]{64}$/);
  expect(req.headers.get('authorization')).toMatch(AUTH_RE);
  expect(req.url).not.toContain(SECRET);
  return url;
}

describe('Aliyun Cloudauth face verification provider', () => {
  it('InitFaceVerify sends the web-flow parameters and returns CertifyId/CertifyUrl', async () => {
    const { fetch, requests } = fakeFetch({
      body: {
        RequestId: 'r-1',
        Code: '200',
        Message: 'success',
        ResultObject: {
          CertifyId: '91707dc296d469ad38e4c5efa6a0f24b',
          CertifyUrl: 'https://m.alicloudauth.example/x?c=1',
        },
      },
    });
    const face = provider(fetch);
    expect(face.name).toBe('aliyun');
    await expect(face.init(initReq)).resolves.toEqual({
      certifyId: '91707dc296d469ad38e4c5efa6a0f24b',
      certifyUrl: 'https://m.alicloudauth.example/x?c=1',
    });
    const url = expectSigned(requests[0] as Request, 'InitFaceVerify');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      SceneId: '1000000006',
      OuterOrderNo: initReq.outerOrderNo,
      ProductCode: 'ID_PRO',
      CertType: 'IDENTITY_CARD',
      CertName: '张三',
      CertNo: initReq.certNo,
      ReturnUrl: initReq.returnUrl,
      MetaInfo: initReq.metaInfo,
    });
  });

  it('omits MetaInfo when absent and honours the product code option', async () => {
    const { fetch, requests } = fakeFetch({
      body: { Code: '200', ResultObject: { CertifyId: 'c', CertifyUrl: 'https://u' } },
    });
    const { metaInfo: _omit, ...withoutMeta } = initReq;
    await provider(fetch, 'PV_FV').init(withoutMeta);
    const params = new URL((requests[0] as Request).url).searchParams;
    expect(params.has('MetaInfo')).toBe(false);
    expect(params.get('ProductCode')).toBe('PV_FV');
  });

  it('InitFaceVerify throws with the vendor code on refusal', async () => {
    const { fetch } = fakeFetch({ body: { RequestId: 'r-2', Code: '401', Message: '身份信息不合法' } });
    await expect(provider(fetch).init(initReq)).rejects.toThrow(/InitFaceVerify failed: 401/);
  });

  it('maps gateway errors (HTTP 4xx) to their Code', async () => {
    const { fetch } = fakeFetch({ status: 403, body: { Code: 'Forbidden.RAM', Message: 'no permission' } });
    const error = await provider(fetch)
      .init(initReq)
      .then(
        () => null,
        (e: unknown) => e as Error,
      );
    expect(error?.message).toContain('Forbidden.RAM');
    expect(error?.message).not.toContain(SECRET);
  });

  it("DescribeFaceVerify maps Passed 'T' to passed true with the SubCode", async () => {
    const { fetch, requests } = fakeFetch({
      body: { RequestId: 'r-3', Code: '200', Message: 'success', ResultObject: { Passed: 'T', SubCode: '200' } },
    });
    await expect(provider(fetch).describe('91707dc296d469ad38e4c5efa6a0f24b')).resolves.toEqual({
      passed: true,
      subCode: '200',
    });
    const url = expectSigned(requests[0] as Request, 'DescribeFaceVerify');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      SceneId: '1000000006',
      CertifyId: '91707dc296d469ad38e4c5efa6a0f24b',
    });
  });

  it("DescribeFaceVerify maps Passed 'F' to passed false", async () => {
    const { fetch } = fakeFetch({ body: { Code: '200', ResultObject: { Passed: 'F', SubCode: '205' } } });
    await expect(provider(fetch).describe('c')).resolves.toEqual({ passed: false, subCode: '205' });
  });

  it('DescribeFaceVerify throws with the vendor code on refusal', async () => {
    const { fetch } = fakeFetch({ body: { Code: '400', Message: '参数不能为空' } });
    await expect(provider(fetch).describe('c')).rejects.toThrow(/DescribeFaceVerify failed: 400/);
  });
});
