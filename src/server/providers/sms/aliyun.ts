// Production SMS provider: Aliyun Dysmsapi SendSms (2017-05-25) over a V3-signed RPC call.
import { callAcs3Rpc, defaultFetch, vendorCode } from '../aliyun/signature';
import { type SmsMessage, type SmsProvider, SmsSendError, type SmsTemplate } from './types';

export const SEND_SMS_VERSION = '2017-05-25';

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** The console template code used for the verify_code template. */
  templateCode: string;
  /** The console template code of the renew_notice template, when the deployment has one approved. */
  renewTemplateCode?: string | undefined;
  endpoint?: string;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * SendSms codes that may pass on a later try: flow control (isv.BUSINESS_LIMIT_CONTROL and its minute/hour variants),
 * the gateway's throttling, and the vendor's own system errors. Every other vendor code (isv.MOBILE_NUMBER_ILLEGAL,
 * isv.SMS_TEMPLATE_ILLEGAL, isv.SMS_SIGNATURE_ILLEGAL, isv.TEMPLATE_MISSING_PARAMETERS, isv.OUT_OF_SERVICE,
 * isv.AMOUNT_NOT_ENOUGH, SignatureDoesNotMatch ...) is permanent for that message.
 */
const RETRYABLE_CODES = new Set([
  'isv.BUSINESS_LIMIT_CONTROL',
  'BUSINESS_LIMIT_CONTROL_MINUTE',
  'isv.BUSINESS_LIMIT_HOUR',
  'isp.SYSTEM_ERROR',
  'isp.GATEWAY_ERROR',
  'isp.UNKNOWN',
  'Throttling',
  'Throttling.User',
  'Throttling.Api',
  'ServiceUnavailable',
  'InternalError',
]);

/** Whether a SendSms refusal may pass later: a listed code, HTTP 429 or a 5xx without a vendor code. */
export function retryableSendSmsCode(code: string): boolean {
  if (RETRYABLE_CODES.has(code)) return true;
  const status = /^HTTP_(\d{3})$/.exec(code)?.[1];
  return status === '429' || status?.startsWith('5') === true;
}

function templateParam(template: SmsTemplate, params: Record<string, string>): string {
  switch (template) {
    case 'verify_code': {
      const code = params.code;
      if (!code) throw new Error('aliyun sms: verify_code needs params.code');
      return JSON.stringify({ code });
    }
    case 'renew_notice': {
      // Aliyun allows at most 35 characters in one template variable.
      const v = (key: string) => {
        const value = params[key];
        if (!value) throw new Error(`aliyun sms: renew_notice needs params.${key}`);
        return [...value].slice(0, 35).join('');
      };
      return JSON.stringify({ name: v('name'), time: v('time'), amount: v('amount'), balance: v('balance') });
    }
  }
}

/**
 * An SmsProvider that sends through Aliyun SendSms; unless the body Code is OK it throws an SmsSendError with the
 * Aliyun Code (NETWORK when the call itself failed) saying whether a later try may pass.
 */
export function createAliyunSms(opts: AliyunSmsOptions): SmsProvider {
  const templateCode = (t: SmsTemplate): string | undefined =>
    t === 'verify_code' ? opts.templateCode : opts.renewTemplateCode || undefined;
  const call = {
    accessKeyId: opts.accessKeyId,
    accessKeySecret: opts.accessKeySecret,
    host: opts.endpoint ?? 'dysmsapi.aliyuncs.com',
    fetch: opts.fetch ?? defaultFetch(),
    now: opts.now ?? Date.now,
  };
  return {
    name: 'aliyun',
    sends: (template) => templateCode(template) !== undefined,
    async send(message: SmsMessage) {
      const code = templateCode(message.template);
      if (!code) throw new Error(`aliyun sms: no template code configured for ${message.template}`);
      const query = {
        PhoneNumbers: message.phone,
        SignName: opts.signName,
        TemplateCode: code,
        TemplateParam: templateParam(message.template, message.params),
      };
      let res: Awaited<ReturnType<typeof callAcs3Rpc>>;
      try {
        res = await callAcs3Rpc(call, 'SendSms', SEND_SMS_VERSION, query);
      } catch (err) {
        // The request never got an answer (DNS, connection, reset): the message may go out on a later try.
        throw new SmsSendError(`aliyun sms: SendSms failed: NETWORK (${String(err).slice(0, 200)})`, 'NETWORK', true);
      }
      // SendSms reports business refusals (rate limits, bad numbers) as HTTP 200 with Code != OK.
      if (res.body.Code !== 'OK') {
        const vendor = vendorCode(res);
        const requestId = typeof res.body.RequestId === 'string' ? ` (RequestId ${res.body.RequestId})` : '';
        throw new SmsSendError(
          `aliyun sms: SendSms failed: ${vendor}${requestId}`,
          vendor,
          retryableSendSmsCode(vendor),
        );
      }
    },
  };
}
