'use client';
// The bill table: select unpaid or closed orders to delete, pay or cancel unpaid ones, open any order's detail.
import { useState } from 'react';
import type { ActionOutput } from '../../lib/api-core';
import { PRODUCT_LABEL } from '../../lib/commerce';
import { formatDateTime, formatFen } from '../../lib/format';
import { api } from '../../state/api';
import { pushToast } from '../../state/toast';
import { Cell, DataBody, DataHead, DataRow, DataTable, rowAction, Th } from '../data-table';
import { Dialog } from '../dialog';
import { CancelOrderButton } from './cancel-order-button';
import { ORDER_STATE } from '../../lib/order-states';

/** One bill as Order.GetBillList answers it. */
export type BillRow = ActionOutput<'Order.GetBillList'>['list'][number];

const STATE_STYLE: Record<number, string> = {
  1: 'bg-amber-50 text-amber-700',
  2: 'bg-emerald-50 text-emerald-700',
  3: 'bg-slate-100 text-slate-500',
};

export function BillTable({ rows }: { rows: BillRow[] }) {
  const [selected, setSelected] = useState<string[]>([]);
  const [confirm, setConfirm] = useState(false);
  const toggle = (no: string) => setSelected((s) => (s.includes(no) ? s.filter((x) => x !== no) : [...s, no]));

  async function remove() {
    setConfirm(false);
    const r = await api.call('Order.DeleteByOrderNos', { orderNos: selected });
    if (r) {
      pushToast('success', `已删除 ${r.deleted} 个订单`);
      window.location.reload();
    }
  }

  if (rows.length === 0) {
    return (
      <div className="card p-12 text-center text-slate-500" data-testid="bills-empty">
        暂无订单记录
      </div>
    );
  }
  return (
    <div className="card overflow-hidden">
      <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3 text-sm">
        <span className="text-slate-500">已选 {selected.length} 项</span>
        <button
          type="button"
          className="btn-ghost text-rose-600"
          disabled={selected.length === 0}
          onClick={() => setConfirm(true)}
        >
          删除所选
        </button>
      </div>
      <div className="overflow-x-auto max-md:p-3">
        <DataTable className="md:min-w-[860px]" data-testid="bill-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="w-10 px-4 py-3">
                <span className="sr-only">选择</span>
              </Th>
              <Th className="px-3 py-3 font-medium">订单号 / 下单时间</Th>
              <Th className="px-3 py-3 font-medium">商品</Th>
              <Th className="px-3 py-3 font-medium">类型</Th>
              <Th className="px-3 py-3 text-right font-medium">原价</Th>
              <Th className="px-3 py-3 text-right font-medium">实付</Th>
              <Th className="px-3 py-3 font-medium">状态</Th>
              <Th className="px-3 py-3 font-medium">操作</Th>
            </tr>
          </DataHead>
          <DataBody>
            {rows.map((r) => (
              <DataRow key={r.orderNo} className="border-t border-slate-100 align-top" data-testid="bill-row">
                <Cell kind="select" className="px-4 py-3">
                  {r.deletable && (
                    <input
                      type="checkbox"
                      aria-label={`选择订单 ${r.orderNo}`}
                      checked={selected.includes(r.orderNo)}
                      onChange={() => toggle(r.orderNo)}
                    />
                  )}
                </Cell>
                <Cell label="订单号" className="px-3 py-3">
                  <div className="font-mono text-xs text-ink">{r.orderNo}</div>
                  <div className="mt-1 text-xs text-slate-400">{formatDateTime(r.createdAt)}</div>
                </Cell>
                <Cell kind="title" className="max-w-64 px-3 py-3 max-md:max-w-none">
                  <div className="text-ink max-md:font-medium">{r.title}</div>
                  <div className="mt-1 text-xs text-slate-400">{PRODUCT_LABEL[r.productType]}</div>
                </Cell>
                <Cell label="类型" className="px-3 py-3 whitespace-nowrap">
                  {r.kindText}
                </Cell>
                <Cell label="原价" className="px-3 py-3 text-right whitespace-nowrap text-slate-500">
                  {formatFen(r.listFen)}
                </Cell>
                <Cell label="实付" className="px-3 py-3 text-right font-medium whitespace-nowrap text-ink">
                  {formatFen(r.payFen)}
                  {r.refundedFen > 0 && (
                    <div className="mt-1 text-xs font-normal text-emerald-700" data-testid="bill-refunded">
                      已退 {formatFen(r.refundedFen)}
                    </div>
                  )}
                </Cell>
                <Cell label="状态" className="px-3 py-3 whitespace-nowrap">
                  <span className={`rounded px-2 py-0.5 text-xs ${STATE_STYLE[r.state] ?? ''}`}>{r.stateText}</span>
                  {r.paidAt && <div className="mt-1 text-xs text-slate-400">{formatDateTime(r.paidAt)}</div>}
                </Cell>
                <Cell kind="actions" className="px-3 py-3 whitespace-nowrap">
                  {r.state === ORDER_STATE.pending && (
                    <a className={rowAction()} href={`/payPage?orderNo=${r.orderNo}`}>
                      去支付
                    </a>
                  )}
                  {r.state === ORDER_STATE.pending && (
                    <CancelOrderButton orderNo={r.orderNo} className={`${rowAction('danger')} md:ml-3`} />
                  )}
                  {r.state !== ORDER_STATE.pending && (
                    <a className={rowAction()} href={`/payPage?orderNo=${r.orderNo}`} data-testid="order-detail-link">
                      详情
                    </a>
                  )}
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </div>
      <Dialog open={confirm} title="删除订单" onClose={() => setConfirm(false)} onConfirm={remove}>
        确定删除所选的 {selected.length} 个订单吗？待支付订单将被关闭，占用的优惠券会退回。
      </Dialog>
    </div>
  );
}
