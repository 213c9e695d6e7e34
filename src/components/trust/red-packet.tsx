'use client';
// The floating red packet and its dialog (loaded only while RedPacketWidget has a packet to show, to keep it off
// the home page's first load): a verified user receives the packet (RedLaunch.Receive) and turns it into a package
// (Proxy.GetredPackage); others are sent to log in or to real-name verification first.
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { isRealNameVerified } from '../../lib/identity';
import { REAL_NAME_FORM } from '../../lib/personal-center-nav';
import { api } from '../../state/api';
import { type RedInfo, redInfoAtom } from '../../state/red-packet';
import { mineInfoAtom } from '../../state/session';
import { pushToast } from '../../state/toast';
import { Dialog } from '../dialog';

export function RedPacket({
  launch,
  recordId,
  setRecordId,
}: {
  launch: NonNullable<RedInfo['data']>;
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
        // Phones: a small chip in the header bar, which is never over the page's content (a floating disc covered
        // headings and the order bar's amount at 390 px). From md up: the labelled tab floating at the left edge (on a
        // tablet with the sticky order bar it docks into the bar's reserved slot, global.css).
        className="inline-flex h-8 shrink-0 items-center gap-1 rounded-full bg-gradient-to-b from-red-500 to-red-600 pr-2.5 pl-1 text-xs font-semibold text-white shadow ring-1 ring-amber-300 md:fixed md:bottom-10 md:left-4 md:z-40 md:h-16 md:w-14 md:flex-col md:justify-center md:gap-0 md:rounded-xl md:p-0 md:font-normal md:shadow-lg md:ring-2 md:hover:scale-105"
        aria-label={`领取红包：${launch.title}`}
        data-testid="red-packet-button"
      >
        <span className="flex h-6 w-6 items-center justify-center rounded-full bg-amber-300 text-[11px] font-bold text-red-700 md:h-7 md:w-7 md:text-sm">
          红
        </span>
        <span className="md:mt-1 md:text-[11px]">领红包</span>
      </button>
      {/* The button sits in the sticky header on phones: the dialog goes to the body, out of the header's layer. */}
      {createPortal(
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
        </Dialog>,
        document.body,
      )}
    </>
  );
}
