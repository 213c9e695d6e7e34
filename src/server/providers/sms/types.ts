// The SMS provider interface. Real: Aliyun SendSms. Development: an outbox table readable only outside production.

export type SmsTemplate = 'verify_code';

export interface SmsMessage {
  phone: string;
  template: SmsTemplate;
  params: Record<string, string>;
}

export interface SmsProvider {
  readonly name: 'aliyun' | 'outbox';
  /** Send one message; throws when the provider refuses it. */
  send(message: SmsMessage): Promise<void>;
}
