'use client';
// The order page's filter bar: order type, product, order date range and order number. A plain GET form (works
// without JavaScript); with JavaScript a bad order number or a reversed date range is refused inline before submitting.
import { useState } from 'react';
import { ORDER_NO_RE } from '../../lib/bill-filters';
import { ORDER_KIND_LABEL, PRODUCT_LABEL, PRODUCT_TYPES } from '../../lib/commerce';
import { messages } from '../../lib/messages';

export interface BillFilterValues {
  state: number;
  kind: number;
  productType: number;
  fromDay: string;
  toDay: string;
  orderNo: string;
}

export function BillFilters({ values }: { values: BillFilterValues }) {
  const [error, setError] = useState('');
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    const f = new FormData(e.currentTarget);
    const orderNo = String(f.get('orderNo') ?? '')
      .trim()
      .toUpperCase();
    const from = String(f.get('from') ?? '');
    const to = String(f.get('to') ?? '');
    const problem =
      orderNo && !ORDER_NO_RE.test(orderNo)
        ? messages.billOrderNoInvalid
        : from && to && from > to
          ? messages.billDateRangeInvalid
          : '';
    if (problem) {
      e.preventDefault();
      setError(problem);
    }
  };
  return (
    <form
      method="get"
      action="/personalCenter/orderManager"
      onSubmit={onSubmit}
      className="mt-4 grid grid-cols-2 gap-3 text-sm md:flex md:flex-wrap md:items-end"
      data-testid="bill-filters"
    >
      <input type="hidden" name="state" value={values.state} />
      <label className="flex min-w-0 flex-col gap-1">
        <span className="text-xs text-slate-500">订单类型</span>
        <select name="kind" defaultValue={values.kind} className="input py-2">
          <option value={0}>全部类型</option>
          {Object.entries(ORDER_KIND_LABEL).map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-w-0 flex-col gap-1">
        <span className="text-xs text-slate-500">产品</span>
        <select name="productType" defaultValue={values.productType} className="input py-2">
          <option value={0}>全部产品</option>
          {PRODUCT_TYPES.map((t) => (
            <option key={t} value={t}>
              {PRODUCT_LABEL[t]}
            </option>
          ))}
        </select>
      </label>
      <label className="flex min-w-0 flex-col gap-1">
        <span className="text-xs text-slate-500">下单日期从</span>
        <input type="date" name="from" defaultValue={values.fromDay} className="input min-w-0 py-2" />
      </label>
      <label className="flex min-w-0 flex-col gap-1">
        <span className="text-xs text-slate-500">至</span>
        <input type="date" name="to" defaultValue={values.toDay} className="input min-w-0 py-2" />
      </label>
      <label className="col-span-2 flex min-w-0 flex-col gap-1 md:w-72">
        <span className="text-xs text-slate-500">订单号</span>
        <input
          type="search"
          name="orderNo"
          defaultValue={values.orderNo}
          maxLength={40}
          placeholder="输入完整订单号（D开头，31位）"
          autoComplete="off"
          spellCheck={false}
          className="input py-2 font-mono"
          onChange={() => setError('')}
        />
      </label>
      <div className="col-span-2 flex gap-2">
        <button type="submit" className="btn-primary flex-1 md:flex-none">
          筛选
        </button>
        <a href={`/personalCenter/orderManager?state=${values.state}`} className="btn-ghost border border-slate-200">
          重置
        </a>
      </div>
      {error && (
        <p role="alert" className="col-span-2 text-sm text-rose-600 md:w-full">
          {error}
        </p>
      )}
    </form>
  );
}
