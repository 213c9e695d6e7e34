'use client';
// The user's packages of one type with their renew / buy-IP / extend / upgrade actions (personal centre, tab 2).
import { useState } from 'react';
import { packageRemainingText } from '../../lib/commerce';
import { formatDateTime, formatFen } from '../../lib/format';
import { BuyIpDialog, type PackageAction } from './buy-ip-dialog';
import type { MealViewData, UpgradablePackage } from './types';

const STATE: Record<number, string> = { 1: '使用中', 2: '已过期', 3: '已用完' };

export function PackageRenewList({ list, upgradeMeals }: { list: UpgradablePackage[]; upgradeMeals: MealViewData[] }) {
  const [open, setOpen] = useState<{ pkg: UpgradablePackage; action: PackageAction } | null>(null);
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
          const usage = packageRemainingText(p);
          const btn = 'btn-outline px-3 py-1.5 text-xs';
          return (
            <li key={p.id} className="card flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
              <div>
                <div className="font-medium text-ink">{p.name}</div>
                <div className="mt-1 flex flex-wrap gap-x-4 text-xs text-slate-500">
                  <span>{STATE[p.state] ?? ''}</span>
                  <span>{usage}</span>
                  <span>到期 {formatDateTime(p.expiresAt)}</span>
                  {p.creditFen > 0 && <span>剩余价值 {formatFen(p.creditFen)}</span>}
                </div>
              </div>
              {p.renewable ? (
                <div className="flex flex-wrap gap-2">
                  <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'renew' })}>
                    续费
                  </button>
                  {!dedicated && p.billingMethod === 1 && p.state !== 2 && (
                    <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'addTimes' })}>
                      购买IP
                    </button>
                  )}
                  {(dedicated || p.billingMethod === 2) && (
                    <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'changeDate' })}>
                      延长时长
                    </button>
                  )}
                  {p.mergeable && upgradeMeals.length > 0 && (
                    <button type="button" className={btn} onClick={() => setOpen({ pkg: p, action: 'merge' })}>
                      升级
                    </button>
                  )}
                </div>
              ) : (
                <span className="text-xs text-slate-400">赠送套餐不支持续费</span>
              )}
            </li>
          );
        })}
      </ul>
      {open && (
        <BuyIpDialog pkg={open.pkg} action={open.action} upgradeMeals={upgradeMeals} onClose={() => setOpen(null)} />
      )}
    </>
  );
}
