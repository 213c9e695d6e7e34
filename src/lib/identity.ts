// Identity rules of seed section 4 shared by server and client: the identity label and the real-name gate.

export interface IdentityFlags {
  isIdentityAuth: boolean;
  /** companyAuth.state: 1 approved; 2 and 3 count as individual-authenticated; anything else none. */
  companyAuthState: number;
}

export type IdentityLabel = '未认证' | '个人已认证' | '企业已认证';

/** 未认证 / 个人已认证 / 企业已认证, per the seed: company state 1 is company; 2 and 3 count as individual. */
export function identityLabel(f: IdentityFlags): IdentityLabel {
  if (f.companyAuthState === 1) return '企业已认证';
  if (f.isIdentityAuth || f.companyAuthState === 2 || f.companyAuthState === 3) return '个人已认证';
  return '未认证';
}

/** isCompanyAuth as the seed's mineInfo exposes it: company authentication is on record (any non-zero state). */
export const isCompanyAuth = (companyAuthState: number): boolean => companyAuthState === 1;

/** True when the user has passed real-name authentication (identity or company). */
export function isRealNameVerified(f: IdentityFlags): boolean {
  return identityLabel(f) !== '未认证';
}
