// Company authentication states (company_auths.state, mirrored by users.company_auth_state; migrations/0006): one home
// for the numbers, used in TypeScript and interpolated into SQL. The state machine is src/server/domain/company-auth.ts.
export const COMPANY_STATE = { none: 0, approved: 1, individual: 2, revoked: 3, pending: 4, rejected: 5 } as const;

/** The states that carry real-name standing: a company, or its applicant verified as a person (individual, revoked). */
export const COMPANY_VERIFIED_STATES = [COMPANY_STATE.approved, COMPANY_STATE.individual, COMPANY_STATE.revoked];

/** SQL list of COMPANY_VERIFIED_STATES, for `state IN (…)`. */
export const COMPANY_VERIFIED_SQL = COMPANY_VERIFIED_STATES.join(', ');
