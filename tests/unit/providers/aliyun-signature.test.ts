import { describe, expect, it } from 'vitest';
import {
  acsDate,
  canonicalQueryString,
  percentEncode,
  signAcs3Request,
  toFetchRequest,
} from '../../../src/server/providers/aliyun/signature';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SIGNED_HEADERS = 'host;x-acs-action;x-acs-content-sha256;x-acs-date;x-acs-signature-nonce;x-acs-version';

describe('ACS3-HMAC-SHA256 signing', () => {
  it("reproduces the vendor's published V3 example (RunInstances, 2023-10-26T10:22:32Z)", async () => {
    const signed = await signAcs3Request({
      accessKeyId: 'YourAccessKeyId',
      accessKeySecret: 'YourAccessKeySecret',
      host: 'ecs.cn-shanghai.aliyuncs.com',
      action: 'RunInstances',
      version: '2014-05-26',
      method: 'POST',
      query: { RegionId: 'cn-shanghai', ImageId: 'win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd' },
      now: Date.UTC(2023, 9, 26, 10, 22, 32),
      nonce: '3156853299f313e23d1673dc12e1703d',
    });
    expect(signed.canonicalRequest).toBe(
      [
        'POST',
        '/',
        'ImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai',
        'host:ecs.cn-shanghai.aliyuncs.com',
        'x-acs-action:RunInstances',
        `x-acs-content-sha256:${EMPTY_SHA256}`,
        'x-acs-date:2023-10-26T10:22:32Z',
        'x-acs-signature-nonce:3156853299f313e23d1673dc12e1703d',
        'x-acs-version:2014-05-26',
        '',
        SIGNED_HEADERS,
        EMPTY_SHA256,
      ].join('\n'),
    );
    expect(signed.stringToSign).toBe(
      'ACS3-HMAC-SHA256\n7ea06492da5221eba5297e897ce16e55f964061054b7695beedaac1145b1e259',
    );
    expect(signed.authorization).toBe(
      `ACS3-HMAC-SHA256 Credential=YourAccessKeyId,SignedHeaders=${SIGNED_HEADERS},` +
        'Signature=06563a9e1b43f5dfe96b81484da74bceab24a1d853912eee15083a6f0f3283c0',
    );
    expect(signed.url).toBe(
      'https://ecs.cn-shanghai.aliyuncs.com/?ImageId=win2019_1809_x64_dtc_zh-cn_40G_alibase_20230811.vhd&RegionId=cn-shanghai',
    );
  });

  it('matches an independently computed vector with UTF-8, JSON and RFC 3986 reserved characters', async () => {
    const signed = await signAcs3Request({
      accessKeyId: 'LTAI5tTestKeyId0000',
      accessKeySecret: 'testSecret/+=0000',
      host: 'dysmsapi.aliyuncs.com',
      action: 'SendSms',
      version: '2017-05-25',
      query: {
        PhoneNumbers: '13800138000',
        SignName: '代理IP门户',
        TemplateCode: 'SMS_123456789',
        TemplateParam: '{"code":"123456"}',
        Extra: "a b*c~d!e'(f)",
        Skipped: undefined,
      },
      // Milliseconds are dropped from x-acs-date.
      now: Date.UTC(2025, 0, 2, 3, 4, 5, 678),
      nonce: '0123456789abcdef0123456789abcdef',
    });
    const query =
      'Extra=a%20b%2Ac~d%21e%27%28f%29&PhoneNumbers=13800138000&SignName=%E4%BB%A3%E7%90%86IP%E9%97%A8%E6%88%B7' +
      '&TemplateCode=SMS_123456789&TemplateParam=%7B%22code%22%3A%22123456%22%7D';
    expect(signed.method).toBe('POST');
    expect(signed.url).toBe(`https://dysmsapi.aliyuncs.com/?${query}`);
    expect(signed.stringToSign).toBe(
      'ACS3-HMAC-SHA256\n8d23755f4e8264487783b38f1a78a4d47ddf2cd5e8a3d4d3e5db86028dfe61ab',
    );
    expect(signed.authorization).toBe(
      `ACS3-HMAC-SHA256 Credential=LTAI5tTestKeyId0000,SignedHeaders=${SIGNED_HEADERS},` +
        'Signature=1532acbad95da0f4775517aec80de96bcf79924fc7bff28594281a85b0fa1a63',
    );
    expect(signed.headers).toMatchObject({
      host: 'dysmsapi.aliyuncs.com',
      'x-acs-action': 'SendSms',
      'x-acs-version': '2017-05-25',
      'x-acs-date': '2025-01-02T03:04:05Z',
      'x-acs-signature-nonce': '0123456789abcdef0123456789abcdef',
      'x-acs-content-sha256': EMPTY_SHA256,
      authorization: signed.authorization,
    });
  });

  it('signs the method, so GET and POST differ', async () => {
    const base = {
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      host: 'example.aliyuncs.com',
      action: 'A',
      version: '2020-01-01',
      now: 0,
      nonce: 'n',
    };
    const post = await signAcs3Request({ ...base, method: 'POST' });
    const get = await signAcs3Request({ ...base, method: 'GET' });
    expect(get.authorization).not.toBe(post.authorization);
    expect(get.url).toBe('https://example.aliyuncs.com/');
  });

  it('encodes per RFC 3986 and omits empty values', () => {
    expect(percentEncode(" !'()*~-_.")).toBe('%20%21%27%28%29%2A~-_.');
    expect(percentEncode('a+b/c=d&e')).toBe('a%2Bb%2Fc%3Dd%26e');
    expect(canonicalQueryString({ b: '2', a: '1', empty: '', gone: undefined, n: 3 })).toBe('a=1&b=2&n=3');
    expect(acsDate(Date.UTC(2024, 1, 29, 23, 59, 59, 999))).toBe('2024-02-29T23:59:59Z');
  });

  it('builds a fetch Request with the signed headers and the query string unchanged', async () => {
    const signed = await signAcs3Request({
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      host: 'dysmsapi.aliyuncs.com',
      action: 'SendSms',
      version: '2017-05-25',
      query: { SignName: '门户', TemplateParam: '{"code":"1"}' },
      now: 0,
      nonce: 'n',
    });
    const request = toFetchRequest(signed);
    expect(request.method).toBe('POST');
    expect(request.url).toBe(signed.url);
    expect(request.headers.get('authorization')).toBe(signed.authorization);
    expect(request.headers.get('x-acs-content-sha256')).toBe(EMPTY_SHA256);
    expect(request.headers.get('accept')).toBe('application/json');
  });
});
