'use client';
// The buy page's live quote (PayOrder.Quote, best coupon pre-selected), the coupons the customer may still receive,
// and receiving one: the toast says what the engine did with it, never more.
import { useEffect, useState } from 'react';
import type { ActionOutput } from '../../lib/api-core';
import { couponRuleText } from '../../lib/coupon-rules';
import { api } from '../../state/api';
import { pushToast } from '../../state/toast';
import type { QuoteRequest, QuoteView } from './types';

export type Receivable = ActionOutput<'Coupon.GetReceivable'>['list'][number];

export function useBuyQuote(request: QuoteRequest | null, loggedIn: boolean) {
  const [couponId, setCouponId] = useState<number | 'none' | 'auto'>('auto');
  const [quote, setQuote] = useState<QuoteView | null>(null);
  const [receivable, setReceivable] = useState<Receivable[]>([]);
  const [version, setVersion] = useState(0);
  // The coupon being received: its button is disabled meanwhile, so a double click receives it once.
  const [receiving, setReceiving] = useState<number | null>(null);
  const chosenCoupon = typeof couponId === 'number' ? couponId : undefined;
  // One string holds everything a quote depends on, so the effect re-runs exactly when it changes.
  const quoteKey = request ? JSON.stringify({ request, couponId: chosenCoupon, v: version }) : '';

  useEffect(() => {
    if (!quoteKey) return;
    const { request: req, couponId: chosen } = JSON.parse(quoteKey) as { request: QuoteRequest; couponId?: number };
    let live = true;
    const t = setTimeout(async () => {
      const r = await api.call('PayOrder.Quote', { request: req, couponId: chosen }, { silent: true });
      if (!live) return;
      if (r) {
        setQuote(r);
        setCouponId((c) => (c === 'auto' && r.bestCouponId ? r.bestCouponId : c));
      } else setCouponId('auto');
    }, 200);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [quoteKey]);

  const receivableKey = loggedIn ? `v${version}` : '';
  useEffect(() => {
    if (!receivableKey) return;
    void api.call('Coupon.GetReceivable', {}, { silent: true }).then((r) => {
      if (r) setReceivable(r.list.filter((c) => c.received < c.perUserLimit));
    });
  }, [receivableKey]);

  /** Receive a coupon, then ask the engine whether this order can use it and say exactly that. */
  async function receive(c: Receivable) {
    if (receiving !== null) return;
    setReceiving(c.id);
    const r = await api.call('Coupon.Receive', { couponId: c.id });
    if (!r) {
      setReceiving(null);
      return;
    }
    const q = request ? await api.call('PayOrder.Quote', { request }, { silent: true }) : false;
    setReceiving(null);
    const applies = q !== false && q.applicableCoupons.some((x) => x.id === r.id);
    if (applies) {
      const best = q.bestCouponId === r.id;
      pushToast('success', best ? '领取成功，已为您选用该优惠券' : '领取成功，已为您选择本单最优惠的优惠券');
    } else {
      pushToast('success', `领取成功，当前订单暂不满足使用条件（${couponRuleText(c)}）`);
    }
    setCouponId('auto');
    setVersion((v) => v + 1);
  }

  /** After an order is placed its coupon is tied to it: quote again without it. */
  function refresh() {
    setCouponId('auto');
    setVersion((v) => v + 1);
  }

  return { quote, couponId, setCouponId, chosenCoupon, receivable, receive, receiving, refresh };
}
