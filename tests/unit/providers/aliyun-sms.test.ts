import { describe, expect, it } from 'vitest';
import { createAliyunSms } from '../../../src/server/providers/sms/aliyun';
import { isRetryableSmsError } from '../../../src/server/providers/sms/types';

const SECRET = 'sms-secret-never-leak';
const NOW = Date.UTC(2025, 5, 1, 8, 30, 0);

function fakeFetch(status: number, body: unknown) {
  const requests: Request[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

function provider(fetch: typeof globalThis.fetch) {
  return createAliyunSms({
    accessKeyId: 'LTAI-sms-id',
    accessKeySecret: SECRET,
    signName: '代理IP门户',
    templateCode: 'SMS_480000001',
    fetch,
    now: () => NOW,
  });
}

const message = { phone: '13800138000', template: 'verify_code' as const, params: { code: '654321' } };

describe('Aliyun SendSms provider', () => {
  it('sends a V3-signed SendSms call with the template parameters in the query', async () => {
    const { fetch, requests } = fakeFetch(200, { Code: 'OK', Message: 'OK', BizId: '1^0', RequestId: 'r-1' });
    const sms = provider(fetch);
    expect(sms.name).toBe('aliyun');
    await sms.send(message);

    expect(requests).toHaveLength(1);
    const req = requests[0] as Request;
    const url = new URL(req.url);
    expect(req.method).toBe('POST');
    expect(url.protocol).toBe('https:');
    expect(url.host).toBe('dysmsapi.aliyuncs.com');
    expect(url.pathname).toBe('/');
    expect(req.headers.get('x-acs-action')).toBe('SendSms');
    expect(req.headers.get('x-acs-version')).toBe('2017-05-25');
    expect(req.headers.get('x-acs-date')).toBe('2025-06-01T08:30:00Z');
    expect(req.headers.get('x-acs-signature-nonce')).toMatch(/^[0-9a-f]{32}$/);
    expect(req.headers.get('x-acs-content-sha256')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(req.headers.get('authorization')).toMatch(
      /^ACS3-HMAC-SHA256 Credential=LTAI-sms-id,SignedHeaders=host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version,Signature=[0-9a-f]{64}$/,
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      PhoneNumbers: '13800138000',
      SignName: '代理IP门户',
      TemplateCode: 'SMS_480000001',
      TemplateParam: '{"code":"654321"}',
    });
    // Spaces and JSON punctuation are RFC 3986 encoded, not form-encoded.
    expect(url.search).toContain('TemplateParam=%7B%22code%22%3A%22654321%22%7D');
    expect(JSON.stringify([...req.headers])).not.toContain(SECRET);
    expect(req.url).not.toContain(SECRET);
  });

  it('uses a fresh nonce per request', async () => {
    const { fetch, requests } = fakeFetch(200, { Code: 'OK' });
    const sms = provider(fetch);
    await sms.send(message);
    await sms.send(message);
    const [a, b] = requests.map((r) => r.headers.get('x-acs-signature-nonce'));
    expect(a).not.toBe(b);
  });

  it('throws with the Aliyun Code when the body Code is not OK, without leaking the secret', async () => {
    const { fetch } = fakeFetch(200, {
      Code: 'isv.BUSINESS_LIMIT_CONTROL',
      Message: '触发分钟级流控Permits:1',
      RequestId: 'r-2',
    });
    const error = await provider(fetch)
      .send(message)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('isv.BUSINESS_LIMIT_CONTROL');
    expect((error as Error).message).not.toContain(SECRET);
  });

  it('throws with the gateway Code on an HTTP error', async () => {
    const { fetch } = fakeFetch(400, { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched' });
    await expect(provider(fetch).send(message)).rejects.toThrow('SignatureDoesNotMatch');
  });

  it('throws with the HTTP status when the body is not JSON', async () => {
    const { fetch } = fakeFetch(502, '<html>bad gateway</html>');
    await expect(provider(fetch).send(message)).rejects.toThrow('HTTP_502');
  });

  it('says which refusals are worth trying again: throttling, system errors, 5xx and no answer; not a bad number or template', async () => {
    const refusal = async (fetch: typeof globalThis.fetch) =>
      provider(fetch)
        .send(message)
        .then(
          () => null,
          (e: unknown) => e,
        );
    const answered = (status: number, body: unknown) => refusal(fakeFetch(status, body).fetch);
    const retryable = [
      await answered(200, { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控Permits:1' }),
      await answered(200, { Code: 'isp.SYSTEM_ERROR' }),
      await answered(400, { Code: 'Throttling.User', Message: 'Request was denied due to user flow control.' }),
      await answered(503, '<html>unavailable</html>'),
      await refusal((async () => {
        throw new TypeError('Network connection lost.');
      }) as typeof globalThis.fetch),
    ];
    const permanent = [
      await answered(200, { Code: 'isv.MOBILE_NUMBER_ILLEGAL' }),
      await answered(200, { Code: 'isv.SMS_TEMPLATE_ILLEGAL' }),
      await answered(200, { Code: 'isv.SMS_SIGNATURE_ILLEGAL' }),
      await answered(400, { Code: 'SignatureDoesNotMatch' }),
    ];
    expect(retryable.map(isRetryableSmsError)).toEqual([true, true, true, true, true]);
    expect(permanent.map(isRetryableSmsError)).toEqual([false, false, false, false]);
    expect(String(retryable[4])).toContain('NETWORK');
    expect(String(permanent[0])).toContain('isv.MOBILE_NUMBER_ILLEGAL');
  });

  it('refuses a verify_code message without a code before calling out', async () => {
    const { fetch, requests } = fakeFetch(200, { Code: 'OK' });
    await expect(provider(fetch).send({ ...message, params: {} })).rejects.toThrow('params.code');
    expect(requests).toHaveLength(0);
  });

  it('honours a custom endpoint', async () => {
    const { fetch, requests } = fakeFetch(200, { Code: 'OK' });
    await createAliyunSms({
      accessKeyId: 'id',
      accessKeySecret: SECRET,
      signName: 's',
      templateCode: 't',
      endpoint: 'dysmsapi.ap-southeast-1.aliyuncs.com',
      fetch,
      now: () => NOW,
    }).send(message);
    expect(new URL((requests[0] as Request).url).host).toBe('dysmsapi.ap-southeast-1.aliyuncs.com');
  });

  it('sends the renewal notice under its own template code, variables cut to 35 characters, and only when configured', async () => {
    const { fetch, requests } = fakeFetch(200, { Code: 'OK' });
    const renew = {
      phone: '13800138000',
      template: 'renew_notice' as const,
      params: { name: `短效动态IP${'长'.repeat(40)}`, time: '2026-12-01 10:00', amount: '40.38', balance: '10.00' },
    };
    const without = provider(fetch);
    expect(without.sends('verify_code')).toBe(true);
    expect(without.sends('renew_notice')).toBe(false);
    await expect(without.send(renew)).rejects.toThrow('no template code configured for renew_notice');
    expect(requests).toHaveLength(0);

    const sms = createAliyunSms({
      accessKeyId: 'id',
      accessKeySecret: SECRET,
      signName: 's',
      templateCode: 'SMS_480000001',
      renewTemplateCode: 'SMS_480000002',
      fetch,
      now: () => NOW,
    });
    expect(sms.sends('renew_notice')).toBe(true);
    await sms.send(renew);
    const query = Object.fromEntries(new URL((requests[0] as Request).url).searchParams);
    expect(query.TemplateCode).toBe('SMS_480000002');
    const vars = JSON.parse(query.TemplateParam ?? '{}') as Record<string, string>;
    expect([...(vars.name ?? '')]).toHaveLength(35);
    expect(vars).toMatchObject({ time: '2026-12-01 10:00', amount: '40.38', balance: '10.00' });
  });
});
