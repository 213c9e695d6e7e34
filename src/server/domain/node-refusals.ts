// Refusal codes a proxy node reports (docs/node-api.md "Refusal codes") and the Chinese reason shown to customers.
import { type MessageCode, messages } from '../../lib/messages';

export const REFUSAL_CODES = [
  'not_whitelisted',
  'bad_credentials',
  'exit_not_leased',
  'lease_expired',
  'account_suspended',
  'over_rate',
  'over_concurrency',
  'contract_stale',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

const REASON: Record<RefusalCode, MessageCode> = {
  not_whitelisted: 'refusalNotWhitelisted',
  bad_credentials: 'refusalBadCredentials',
  exit_not_leased: 'refusalExitNotLeased',
  lease_expired: 'refusalLeaseExpired',
  account_suspended: 'refusalAccountSuspended',
  over_rate: 'refusalOverRate',
  over_concurrency: 'refusalOverConcurrency',
  contract_stale: 'refusalContractStale',
};

/** The Chinese reason for a refusal code, with the client address filled in. */
export function refusalReason(code: string, clientIp: string): string {
  const key = REASON[code as RefusalCode];
  return key ? messages[key].replace('{client}', clientIp) : code;
}
