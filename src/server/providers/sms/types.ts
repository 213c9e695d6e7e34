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
  /** Send one message; throws when the provider refuses it (an SmsSendError when it can tell whether to retry). */
  send(message: SmsMessage): Promise<void>;
}

/**
 * A send that did not go out, with the vendor's code (or NETWORK / HTTP_<status>) and whether trying the same message
 * again later may succeed: throttling, the vendor's system errors, 5xx and network failures may; a bad number, an
 * unapproved template or signature, missing variables or a suspended account do not (docs/decisions/242).
 */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SmsSendError';
  }
}

/** Whether a failed send is worth trying again later; anything that is not an SmsSendError is not. */
export function isRetryableSmsError(err: unknown): boolean {
  return err instanceof SmsSendError && err.retryable;
}
