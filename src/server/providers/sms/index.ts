// Chooses the SMS provider: Aliyun in production (always), the D1 outbox in development unless Aliyun is chosen.
import type { AppConfig, Bindings } from '../../env';
import { createAliyunSms } from './aliyun';
import { createOutboxSms } from './outbox';
import type { SmsProvider } from './types';

/** The SMS provider for this request's configuration. */
export function smsProviderFor(env: Bindings, config: AppConfig, now: () => number): SmsProvider {
  if (config.smsProvider === 'outbox' && !config.isProduction) return createOutboxSms(env.DB, now);
  const { ALIYUN_ACCESS_KEY_ID, ALIYUN_ACCESS_KEY_SECRET, ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_CODE } = env;
  if (!ALIYUN_ACCESS_KEY_ID || !ALIYUN_ACCESS_KEY_SECRET || !ALIYUN_SMS_SIGN_NAME || !ALIYUN_SMS_TEMPLATE_CODE) {
    throw new Error(
      'Aliyun SMS is not configured (ALIYUN_ACCESS_KEY_ID/SECRET, ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_CODE)',
    );
  }
  return createAliyunSms({
    accessKeyId: ALIYUN_ACCESS_KEY_ID,
    accessKeySecret: ALIYUN_ACCESS_KEY_SECRET,
    signName: ALIYUN_SMS_SIGN_NAME,
    templateCode: ALIYUN_SMS_TEMPLATE_CODE,
    now,
  });
}
