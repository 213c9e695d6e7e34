// Refusal codes a proxy node reports (docs/node-api.md "Refusal codes") and the Chinese reason shown to customers.
import { type MessageCode, messages } from '../../lib/messages';
import type { RefusalCode } from '../../lib/node-wire';

// The codes are the node wire protocol's (lib/node-wire.ts, shared with node/).
export { REFUSAL_CODES, type RefusalCode } from '../../lib/node-wire';

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
