'use client';
// The real-name gate (seed section 4): for a logged-in user with neither identity nor company authentication it mounts
// the prompt (real-name-prompt.tsx, whose code loads only then: the home-page JavaScript budget); for everyone else it
// renders nothing.
import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { isRealNameVerified } from '../../lib/identity';
import { mineInfoAtom } from '../../state/session';

const RealNamePrompt = lazy(() => import('./real-name-prompt').then((m) => ({ default: m.RealNamePrompt })));

export function RealNameGate() {
  const info = useAtomValue(mineInfoAtom);
  const needed =
    info !== null &&
    !isRealNameVerified({ isIdentityAuth: info.isIdentityAuth, companyAuthState: info.companyAuth.state });
  return needed ? (
    <Suspense fallback={null}>
      <RealNamePrompt />
    </Suspense>
  ) : null;
}
