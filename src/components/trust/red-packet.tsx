'use client';
// The floating red packet and its dialog (loaded only while RedPacketWidget has a packet to show, to keep it off
// the home page's first load): a verified user receives the packet (RedLaunch.Receive) and turns it into a package
// (Proxy.GetredPackage); others are sent to log in or to real-name verification first.
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { isRealNameVerified } from '../../lib/identity';
import { REAL_NAME_FORM } from '../../lib/personal-center-nav';
import { api } from '../../state/api';
import { type RedInfo, redInfoAtom } from '../../state/red-packet';
import { mineInfoAtom } from '../../state/session';
import { pushToast } from '../../state/toast';
import { Dialog } from '../dialog';

export function RedPacket({
  launch,
  placement,
  recordId,
  setRecordId,
}: {
  launch: NonNullable<RedInfo['data']>;
  /** Visibility classes of the floating packet (phones hide it inside the personal centre). */
  placement: string;
  /** The packet received in this visit, until it is turned into a package. */
  recordId: number | null;
  setRecordId: (id: number | null) => void;
}) {
  const info = useAtomValue(mineInfoAtom);
  const setRed = useSetAtom(redInfoAtom);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const onClose = () => setOpen(false);
  const verified =
    info !== null &&
    isRealNameVerified({ isIdentityAuth: info.isIdentityAuth, companyAuthState: info.companyAuth.state });

  async function receive() {
    setBusy(true);
    const r = await api.call('RedLaunch.Receive', { id: launch.id });
    setBusy(false);
    if (r) {
      setRecordId(r.recordId);
      setRed({ data: { ...launch, received: true, remaining: launch.remaining - 1 } });
    }
  }

  async function use() {
    if (recordId === null) return;
    setBusy(true);
    const r = await api.call('Proxy.GetredPackage', { recordId });
    setBusy(false);
    if (r) {
      pushToast('success', '红包已转为套餐，可在套餐管理中查看');
      onClose();
      setRecordId(null);
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        // Phones get a small corner badge so it never covers forms; desktops the labelled tab on the left.
        className={`fixed right-3 bottom-4 z-40 ${placement} h-12 w-12 flex-col items-center justify-center rounded-full bg-gradient-to-b from-red-500 to-red-600 text-white shadow-lg ring-2 ring-amber-300 hover:scale-105 md:right-auto md:bottom-10 md:left-4 md:h-16 md:w-14 md:rounded-xl`}
        aria-label={`领取红包：${launch.title}`}
        data-testid="red-packet-button"
      >
        <span className="flex h-7 w-7 items-center justify-center rounded-full bg-amber-300 text-sm font-bold text-red-700">
          红
        </span>
        <span className="mt-1 hidden text-[11px] md:inline">领红包</span>
      </button>
      <Dialog open={open} title={launch.title} onClose={onClose} bare width="max-w-sm">
        <div className="space-y-4 text-center" data-testid="red-packet-dialog">
          <div className="mx-auto flex h-28 w-24 flex-col items-center justify-center rounded-2xl bg-gradient-to-b from-red-500 to-red-600 text-white shadow">
            <span className="text-2xl font-bold">{launch.ipCount}</span>
            <span className="text-xs">个IP</span>
          </div>
          <p className="text-slate-600">{launch.description}</p>
          <p className="text-xs text-slate-400">
            有效期{launch.validDays}天 · 剩余{launch.remaining}个
          </p>
          {recordId !== null ? (
            <button type="button" className="btn-primary w-full" onClick={use} disabled={busy}>
              立即使用（转为套餐）
            </button>
          ) : !info ? (
            // Most visitors who open the red packet have no account yet: the SMS tab registers or logs in alike, and
            // brings them back to the page they were on.
            <a
              href="/login?type=sms"
              className="btn-primary w-full"
              onClick={(e) => {
                e.preventDefault();
                const back = window.location.pathname + window.location.search;
                window.location.assign(`/login?type=sms&redirect=${encodeURIComponent(back)}`);
              }}
            >
              注册/登录后领取
            </a>
          ) : !verified ? (
            <a href={REAL_NAME_FORM} className="btn-primary w-full">
              实名认证后领取
            </a>
          ) : (
            <button
              type="button"
              className="btn-primary w-full bg-red-600 hover:bg-red-700"
              onClick={receive}
              disabled={busy}
            >
              领取红包
            </button>
          )}
        </div>
      </Dialog>
    </>
  );
}
