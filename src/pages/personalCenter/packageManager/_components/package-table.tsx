'use client';
// The package list's interactive parts: remark editing, deleting finished packages, and the per-package 自动续费 from
// balance switch (docs/decisions/225).
import { useState } from 'react';
import { Cell, DataRow, HeadedTable, rowAction } from '../../../../components/data-table';
import { Dialog } from '../../../../components/dialog';
import type { ActionOutput } from '../../../../lib/api-core';
import { AUTO_RENEW_NOTICE_HOURS, AUTO_RENEW_WINDOW_HOURS } from '../../../../lib/balance';
import { packageActionHref, packageRemainingText } from '../../../../lib/commerce';
import { formatDateTime } from '../../../../lib/format';
import { PACKAGE_STATE, PENDING_ALLOCATION_NOTE, withPendingIps } from '../../../../lib/package-states';
import { api } from '../../../../state/api';
import { pushToast } from '../../../../state/toast';

export type PackageItem = ActionOutput<'Proxy.GetProxys'>['list'][number];

const STATE_STYLE: Record<number, string> = { 1: 'bg-emerald-50 text-emerald-700', 3: 'bg-amber-50 text-amber-700' };

const usage = (p: PackageItem): string =>
  withPendingIps(packageRemainingText({ ...p, productType: p.type }), p.pendingIps);

export function PackageTable({ initial, type }: { initial: PackageItem[]; type: number }) {
  const [list, setList] = useState(initial);
  const [editing, setEditing] = useState<{ id: number; remark: string } | null>(null);

  async function saveRemark() {
    if (!editing) return;
    if (await api.call('Proxy.AlterRemark', editing)) {
      setList((l) => l.map((p) => (p.id === editing.id ? { ...p, remark: editing.remark } : p)));
      setEditing(null);
      pushToast('success', '备注已保存');
    }
  }

  async function toggleAutoRenew(p: PackageItem) {
    const r = await api.call('Balance.SetAutoRenew', { packageId: p.id, enabled: !p.autoRenew });
    if (!r) return;
    setList((l) => l.map((x) => (x.id === p.id ? { ...x, autoRenew: r.autoRenew } : x)));
    pushToast(
      'success',
      r.autoRenew
        ? `已开启自动续费：到期前${AUTO_RENEW_WINDOW_HOURS}小时内从账户余额续费一个周期，提前${AUTO_RENEW_NOTICE_HOURS}小时通知`
        : '已关闭自动续费',
    );
  }

  async function remove(id: number) {
    if (await api.call('Proxy.DeleteByIds', { ids: [id] })) {
      setList((l) => l.filter((p) => p.id !== id));
      pushToast('success', '删除成功');
    }
  }

  return (
    <div className="overflow-x-auto">
      <HeadedTable
        className="md:min-w-[840px]"
        data-testid="package-table"
        columns={['套餐', '剩余可用', 'IP时长', '到期时间', '状态', '备注', '自动续费', '操作']}
        empty={
          list.length === 0 && (
            <>
              暂无套餐，
              <a className="text-brand-600" href={`/buy?type=${type}`}>
                去购买
              </a>
            </>
          )
        }
        emptyClassName="py-12"
      >
        {list.map((p) => (
          <DataRow key={p.id} className="border-b border-slate-50 align-top">
            <Cell kind="title" className="py-3">
              <div className="font-medium text-ink">{p.name}</div>
              <div className="text-xs text-slate-400">ID {p.id}</div>
            </Cell>
            <Cell label="剩余可用" className="py-3">
              {usage(p)}
              {p.pendingIps > 0 && (
                <p className="mt-1 max-w-xs text-xs leading-5 text-amber-700" data-testid="pending-note">
                  {PENDING_ALLOCATION_NOTE}
                </p>
              )}
            </Cell>
            <Cell label="IP时长" className="py-3">
              {p.durationMinutes >= 60 ? `${p.durationMinutes / 60}小时` : `${p.durationMinutes}分钟`}
            </Cell>
            <Cell label="到期时间" className="py-3 whitespace-nowrap">
              {formatDateTime(p.expiresAt)}
            </Cell>
            <Cell label="状态" className="py-3">
              <span className={`rounded px-2 py-0.5 text-xs ${STATE_STYLE[p.state] ?? 'bg-slate-100 text-slate-500'}`}>
                {p.stateText}
              </span>
            </Cell>
            <Cell label="备注" className="py-3 text-slate-500 md:max-w-[160px] md:truncate">
              {p.remark || '—'}
            </Cell>
            <Cell label="自动续费" className="py-3 whitespace-nowrap md:pr-3">
              {p.source === 'order' && p.state !== PACKAGE_STATE.deleted && p.state !== PACKAGE_STATE.disabled ? (
                <button
                  type="button"
                  role="switch"
                  aria-checked={p.autoRenew}
                  aria-label={`${p.name} 余额自动续费`}
                  onClick={() => void toggleAutoRenew(p)}
                  data-testid={`auto-renew-${p.id}`}
                  className="inline-flex items-center gap-2 text-xs text-slate-600"
                  title="到期前从账户余额自动续费一个周期"
                >
                  <span
                    className={`relative inline-block h-5 w-9 rounded-full transition ${p.autoRenew ? 'bg-brand-600' : 'bg-slate-300'}`}
                    aria-hidden="true"
                  >
                    <span
                      className={`absolute top-0.5 h-4 w-4 rounded-full bg-white transition ${p.autoRenew ? 'left-[18px]' : 'left-0.5'}`}
                    />
                  </span>
                  <span className="md:sr-only">{p.autoRenew ? '已开启' : '未开启'}</span>
                </button>
              ) : (
                <span className="text-xs text-slate-400">—</span>
              )}
            </Cell>
            <Cell kind="actions" className="py-3 whitespace-nowrap md:space-x-3">
              {p.state === PACKAGE_STATE.active && !p.reserved && p.type !== 30 && p.type !== 50 && (
                <a className={rowAction()} href={`/personalCenter/getAgent/api?type=${p.type}&proxyType=1`}>
                  提取
                </a>
              )}
              {(p.type === 30 || p.type === 50) && (
                <a className={rowAction()} href="/personalCenter/ipManager/30">
                  查看IP
                </a>
              )}
              {/* 续费 and 升级 beside the package they act on: the renewal tab opens with that package's dialog. A
                  package no order created (a gift) cannot be renewed: its row there says so and offers the same
                  package to buy. */}
              {p.state !== PACKAGE_STATE.deleted && p.state !== PACKAGE_STATE.disabled && (
                <a
                  className={rowAction()}
                  href={packageActionHref(p.type, p.id, 'renew')}
                  title={p.source === 'order' ? undefined : '赠送套餐不支持续费，可购买同款套餐'}
                >
                  {p.source === 'order' ? '续费' : '购买同款'}
                </a>
              )}
              {p.state === PACKAGE_STATE.active && !p.reserved && p.source === 'order' && (
                <a className={rowAction()} href={packageActionHref(p.type, p.id, 'merge')}>
                  升级
                </a>
              )}
              <button type="button" className={rowAction()} onClick={() => setEditing({ id: p.id, remark: p.remark })}>
                备注
              </button>
              {p.deletable && (
                <button type="button" className={rowAction('danger')} onClick={() => remove(p.id)}>
                  删除
                </button>
              )}
            </Cell>
          </DataRow>
        ))}
      </HeadedTable>
      <Dialog
        open={editing !== null}
        title="修改备注"
        onClose={() => setEditing(null)}
        onConfirm={() => void saveRemark()}
      >
        <input
          className="input"
          maxLength={50}
          value={editing?.remark ?? ''}
          onChange={(e) => setEditing((cur) => (cur ? { ...cur, remark: e.target.value } : cur))}
          placeholder="最多50个字"
        />
      </Dialog>
    </div>
  );
}
