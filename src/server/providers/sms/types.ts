// The SMS provider interface. Real: Aliyun SendSms. Development: an outbox table readable only outside production.

/**
 * verify_code: the login/verification code (`${code}`). renew_notice: an auto-renewal is coming or the balance is
 * short for it (`${name}` the package, `${time}` its expiry in 北京时间, `${amount}` and `${balance}` in 元).
 */
export type SmsTemplate = 'verify_code' | 'renew_notice';

export interface SmsMessage {
  phone: string;
  template: SmsTemplate;
  params: Record<string, string>;
}

export interface SmsProvider {
  readonly name: 'aliyun' | 'outbox';
  /** Whether this deployment can send the template (a vendor template needs its approved code configured). */
  sends(template: SmsTemplate): boolean;
  /** Send one message; throws when the provider refuses it. */
  send(message: SmsMessage): Promise<void>;
}
