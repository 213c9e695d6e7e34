// Development SMS provider: writes messages to the sms_outbox table instead of sending them.
import { insertOutboxMessage } from '../../db/sms';
import type { SmsMessage, SmsProvider } from './types';

/** An SMS provider that stores messages in D1 for developers and browser tests to read. */
export function createOutboxSms(db: D1Database, now: () => number): SmsProvider {
  return {
    name: 'outbox',
    sends: () => true,
    async send(message: SmsMessage) {
      await insertOutboxMessage(db, { ...message, now: now() });
    },
  };
}
