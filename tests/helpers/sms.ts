// Test fixtures for notice SMS sent through the real Aliyun provider: the bindings of a deployment that sends by Aliyun
// (with the renew_notice template), a fake SendSms gateway standing in for dysmsapi.aliyuncs.com (each phone's answers
// scripted in order: 'OK', a vendor Code such as isv.BUSINESS_LIMIT_CONTROL, or 'network' for a call that never gets
// an answer; 'OK' once the script runs out), and what the notice SMS outbox (migration 0046) holds for a phone.
import { env } from 'cloudflare:test';
import { vi } from 'vitest';

/** The worker's bindings, but sending SMS through Aliyun SendSms with both templates approved. */
export function aliyunSmsEnv(): typeof env {
  return {
    ...env,
    SMS_PROVIDER: 'aliyun',
    ALIYUN_ACCESS_KEY_ID: 'LTAI-test-id',
    ALIYUN_ACCESS_KEY_SECRET: 'test-secret',
    ALIYUN_SMS_SIGN_NAME: '代理IP门户',
    ALIYUN_SMS_TEMPLATE_CODE: 'SMS_480000001',
    ALIYUN_SMS_RENEW_TEMPLATE_CODE: 'SMS_480000002',
  } as typeof env;
}

export interface GatewayCall {
  phone: string;
  templateCode: string;
  params: Record<string, string>;
  /** What the gateway answered: 'OK', the vendor Code, or 'network'. */
  answer: string;
}

/**
 * Replace the global fetch for calls to the SendSms host (every other host goes to the real fetch) with a scripted
 * gateway; undo with vi.unstubAllGlobals(). Each answer waits a turn of the event loop so racing runs interleave.
 */
export function fakeSendSmsGateway() {
  const realFetch = globalThis.fetch;
  const scripts = new Map<string, string[]>();
  const calls: GatewayCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.host !== 'dysmsapi.aliyuncs.com') return realFetch(input, init);
    const phone = url.searchParams.get('PhoneNumbers') ?? '';
    const answer = scripts.get(phone)?.shift() ?? 'OK';
    calls.push({
      phone,
      templateCode: url.searchParams.get('TemplateCode') ?? '',
      params: JSON.parse(url.searchParams.get('TemplateParam') ?? '{}') as Record<string, string>,
      answer,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (answer === 'network') throw new TypeError('Network connection lost.');
    return Response.json({ Code: answer, Message: answer, RequestId: `r-${calls.length}`, BizId: '1^0' });
  });
  return {
    /** Answer this phone's next calls with these, in order. */
    script(phone: string, answers: string[]) {
      scripts.set(phone, [...answers]);
    },
    /** Every renew_notice call to this phone, answered or not. */
    renewCalls: (phone: string) => calls.filter((c) => c.phone === phone && c.templateCode === 'SMS_480000002'),
    /** The renew_notice texts this phone received (calls answered OK). */
    renewTexts: (phone: string) =>
      calls.filter((c) => c.phone === phone && c.templateCode === 'SMS_480000002' && c.answer === 'OK'),
  };
}

export interface NoticeSmsRow {
  state: string;
  attempts: number;
  reason: string | null;
  lastError: string | null;
}

/** The notice SMS outbox rows for a phone, oldest first. */
export async function noticeSmsOf(phone: string): Promise<NoticeSmsRow[]> {
  const { results } = await env.DB.prepare(
    `SELECT state, attempts, reason, last_error AS lastError FROM notice_sms WHERE phone = ? ORDER BY id`,
  )
    .bind(phone)
    .all<NoticeSmsRow>();
  return results;
}
