'use client';
// The red-packet launcher: loads RedLaunch.GetRedLaunch whenever the signed-in user changes (login, logout), shows a
// packet while the launch has packets left and the user has none (in the header bar on phones, a floating tab from md
// up; see red-packet.tsx), and lets a verified user receive it
// (RedLaunch.Receive) and turn it into a package (Proxy.GetredPackage). The packet and its dialog
// (red-packet.tsx) load only while there is a packet to show (kept off the home page's first load).
import { useAtom, useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useState } from 'react';
import { api } from '../../state/api';
import { redInfoAtom } from '../../state/red-packet';
import { mineInfoAtom } from '../../state/session';

const RedPacket = lazy(() => import('./red-packet').then((m) => ({ default: m.RedPacket })));

export function RedPacketWidget() {
  const info = useAtomValue(mineInfoAtom);
  const [red, setRed] = useAtom(redInfoAtom);
  const [recordId, setRecordId] = useState<number | null>(null);
  const userId = info?.id ?? null;

  useEffect(() => {
    void userId; // reload on login and logout
    void api.call('RedLaunch.GetRedLaunch', {}, { silent: true }).then((r) => {
      if (r) setRed(r);
    });
  }, [userId, setRed]);

  const launch = red.data;
  if (!launch || (launch.received && recordId === null) || (launch.remaining <= 0 && recordId === null)) return null;

  return (
    <Suspense fallback={null}>
      <RedPacket launch={launch} recordId={recordId} setRecordId={setRecordId} />
    </Suspense>
  );
}
