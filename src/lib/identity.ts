// Identity rules of seed section 4 shared by server and client: the identity label and the real-name gate.
import { COMPANY_STATE } from './company-states';

export interface IdentityFlags {
  isIdentityAuth: boolean;
  /** companyAuth.state: 1 approved; 2 and 3 count as individual-authenticated; anything else none. */
  companyAuthState: number;
}

export type IdentityLabel = '未认证' | '个人已认证' | '企业已认证';

/** 未认证 / 个人已认证 / 企业已认证, per the seed: company state 1 is company; 2 and 3 count as individual. */
export function identityLabel(f: IdentityFlags): IdentityLabel {
  if (f.companyAuthState === COMPANY_STATE.approved) return '企业已认证';
  if (
    f.isIdentityAuth ||
    f.companyAuthState === COMPANY_STATE.individual ||
    f.companyAuthState === COMPANY_STATE.revoked
  ) {
    return '个人已认证';
  }
  return '未认证';
}

/** isCompanyAuth as the seed's mineInfo exposes it: company authentication is on record (any non-zero state). */
export const isCompanyAuth = (companyAuthState: number): boolean => companyAuthState === COMPANY_STATE.approved;

/** True when the user has passed real-name authentication (identity or company). */
export function isRealNameVerified(f: IdentityFlags): boolean {
  return identityLabel(f) !== '未认证';
}
