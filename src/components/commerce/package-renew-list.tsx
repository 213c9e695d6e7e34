'use client';
// The user's packages of one type with their renew / buy-IP / extend / upgrade actions (personal centre, tab 2).
import { useState } from 'react';
import type { PackageAction } from '../../lib/commerce';
import { packageRemainingText } from '../../lib/commerce';
import { formatDateTime, formatFen } from '../../lib/format';
import { PACKAGE_STATE, PENDING_ALLOCATION_NOTE, withPendingIps } from '../../lib/package-states';
import { BuyIpDialog } from './buy-ip-dialog';
import type { UpgradablePackage } from './types';

export function PackageRenewList({
  list,
  type,
  initialOpen,
}: {
  list: UpgradablePackage[];
  type: number;
  /** From a package row's 续费 / 升级 (…&package=ID&action=renew|merge): that dialog opens at once. */
  initialOpen?: { packageId: number; action: PackageAction } | null;
}) {
  const [open, setOpen] = useState<{ pkg: UpgradablePackage; action: PackageAction } | null>(() => {
    const pkg = initialOpen ? list.find((p) => p.id === initialOpen.packageId) : undefined;
    if (!pkg || !initialOpen) return null;
    const allowed = initialOpen.action === 'merge' ? pkg.upgradeTargets.length > 0 : pkg.renewable;
    return allowed ? { pkg, action: initialOpen.action } : null;
  });
  if (list.length === 0) {
    return (
      <div className="card p-10 text-center text-slate-500" data-testid="empty">
        暂无可续费的套餐
      </div>
    );
  }
  return (
    <>
      <ul className="space-y-3">
        {list.map((p) => {
          const dedicated = p.productType === 30 || p.productType === 50;
          const usage = withPendingIps(packageRemainingText(p), p.pendingIps);
          const btn = 'btn-outline px-3 py-1.5 text-xs';
          return (
            <li key={p.id} className="card flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
              <div>
                <div className="font-medium text-ink">{p.name}</div>
                <div className="mt-1 flex flex-wrap gap-x-4 text-xs text-slate-500">
                  <span data-testid="renew-state">{p.stateText}</span>
                  <span>{usage}</span>
                  <span>到期 {formatDateTime(p.expiresAt)}</span>
                  {p.creditFen > 0 && <span>剩余价值 {formatFen(p.creditFen)}</span>}
                </div>
                {p.pendingIps > 0 && (
                  <p className="mt-1 max-w-md text-xs leading-5 text-amber-700" data-testid="pending-note">
                    {PENDING_ALLOCATION_NOTE}
                  </p>
                )}
              </div>
              {p.renewable ? (
                <div className="flex flex-wrap gap-2">
                  <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'renew' })}>
                    续费
                  </button>
                  {!dedicated && p.billingMethod === 1 && p.state !== PACKAGE_STATE.expired && (
                    <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'addTimes' })}>
                      购买IP
                    </button>
                  )}
                  {(dedicated || p.billingMethod === 2) && (
                    <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'changeDate' })}>
                      延长时长
                    </button>
                  )}
                  {p.upgradeTargets.length > 0 && (
                    <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'merge' })}>
                      升级
                    </button>
                  )}
                </div>
              ) : (
                // A gift has no order to renew: say so, and offer the same package to buy.
                <div className="flex flex-wrap items-center gap-2 md:justify-end" data-testid="gift-renew">
                  <span className="text-xs text-slate-500">赠送套餐不支持续费，可购买同款套餐继续使用</span>
                  <a
                    className={btn}
                    href={`/personalCenter/buy?type=${type}&tab=1${p.sameMealId ? `&meal=${p.sameMealId}` : ''}`}
                  >
                    购买同款套餐
                  </a>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {open && <BuyIpDialog pkg={open.pkg} action={open.action} onClose={() => setOpen(null)} />}
    </>
  );
}
