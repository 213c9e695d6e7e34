// Stored states of the trust and growth records (migrations/0006, 0028): one home for each number, used in TypeScript
// and interpolated into SQL.

/** identity_verifications.state: a face verification waiting, passed, failed, or passed for an identity already bound. */
export const VERIFICATION_STATE = { pending: 0, passed: 1, failed: 2, taken: 3 } as const;

/** red_records.state: a received red packet, unused or turned into a package. */
export const RED_RECORD_STATE = { received: 1, used: 2 } as const;

/** grant_requests.state: a large grant waiting for a second operator, approved or rejected (docs/decisions/198). */
export const GRANT_REQUEST_STATE = { pending: 1, approved: 2, rejected: 3 } as const;
