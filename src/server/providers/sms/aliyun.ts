// Production SMS provider: Aliyun Dysmsapi SendSms (2017-05-25) over a V3-signed RPC call.
import { callAcs3Rpc, defaultFetch, vendorCode } from '../aliyun/signature';
import type { SmsMessage, SmsProvider, SmsTemplate } from './types';

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

/** An SmsProvider that sends through Aliyun SendSms; throws with the Aliyun Code unless the body Code is OK. */
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
      const res = await callAcs3Rpc(call, 'SendSms', SEND_SMS_VERSION, {
        PhoneNumbers: message.phone,
        SignName: opts.signName,
        TemplateCode: code,
        TemplateParam: templateParam(message.template, message.params),
      });
      // SendSms reports business refusals (rate limits, bad numbers) as HTTP 200 with Code != OK.
      if (res.body.Code !== 'OK') {
        const requestId = typeof res.body.RequestId === 'string' ? ` (RequestId ${res.body.RequestId})` : '';
        throw new Error(`aliyun sms: SendSms failed: ${vendorCode(res)}${requestId}`);
      }
    },
  };
}
