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
  // The egress policy (docs/node-api.md "Egress policy"; decision 193)
  'target_invalid',
  'target_port_forbidden',
  'target_not_public',
  'target_blocked',
  'target_resolves_private',
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
  target_invalid: 'refusalTargetInvalid',
  target_port_forbidden: 'refusalTargetPortForbidden',
  target_not_public: 'refusalTargetNotPublic',
  target_blocked: 'refusalTargetBlocked',
  target_resolves_private: 'refusalTargetResolvesPrivate',
};

/** The Chinese reason for a refusal code, with the client address filled in. */
export function refusalReason(code: string, clientIp: string): string {
  const key = REASON[code as RefusalCode];
  return key ? messages[key].replace('{client}', clientIp) : code;
}
