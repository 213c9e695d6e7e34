// Chooses the SMS provider: Aliyun in production (always), the D1 outbox in development unless Aliyun is chosen.
import 'server-only';
import { type AppConfig, type Bindings, readConfig } from '../../env';
import { createAliyunSms } from './aliyun';
import { createOutboxSms } from './outbox';
import type { SmsProvider } from './types';

/** The SMS provider for this request's configuration. */
export function smsProviderFor(env: Bindings, config: AppConfig, now: () => number): SmsProvider {
  if (config.smsProvider === 'outbox' && !config.isProduction) return createOutboxSms(env.DB, now);
  const { accessKeyId, accessKeySecret, smsSignName, smsTemplateCode } = config.aliyun;
  if (!accessKeyId || !accessKeySecret || !smsSignName || !smsTemplateCode) {
    throw new Error(
      'Aliyun SMS is not configured (ALIYUN_ACCESS_KEY_ID/SECRET, ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_CODE)',
    );
  }
  const renewTemplateCode = config.aliyun.smsRenewTemplateCode;
  return createAliyunSms({
    accessKeyId,
    accessKeySecret,
    signName: smsSignName,
    templateCode: smsTemplateCode,
    renewTemplateCode,
    now,
  });
}

/**
 * The SMS provider for scheduled notices, or null when the deployment has no SMS configured (the jobs still run and the
 * 站内通知 stand).
 */
export function noticeSmsProvider(env: Bindings): SmsProvider | null {
  try {
    return smsProviderFor(env, readConfig(env), Date.now);
  } catch {
    return null;
  }
}
