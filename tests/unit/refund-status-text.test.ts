// A refund's status is worded by the rail the money goes back by (docs/decisions/241): an Alipay refund never reads
// 微信处理中, a transfer refund in progress is finance's to-do, a balance refund is already in the balance.
import { describe, expect, it } from 'vitest';
import { type PayRail, REFUND_STATUSES, refundRail, refundStatusText } from '../../src/lib/refund-rules';

const RAILS: (PayRail | null)[] = ['wechat', 'alipay', 'transfer', 'balance', null];

describe('refundStatusText', () => {
  it('gives the operator the words of each rail for every status', () => {
    const grid = Object.fromEntries(
      RAILS.map((rail) => [rail ?? 'unknown', REFUND_STATUSES.map((s) => refundStatusText(s, rail))]),
    );
    expect(grid).toEqual({
      wechat: [
        '已提交，等待微信答复',
        '微信处理中，稍后到账',
        '已退回微信支付',
        '退款异常，需在微信支付商户平台人工处理',
        '退款失败',
      ],
      alipay: [
        '已提交，等待支付宝答复',
        '支付宝处理中，稍后到账',
        '已退回支付宝',
        '退款异常，需在支付宝商户平台人工处理',
        '退款失败',
      ],
      transfer: ['已登记，待确认', '待财务转账退回', '财务已转账退回', '退款异常，请与财务核对', '退款失败'],
      balance: ['已登记，待退回余额', '退回余额处理中', '已退回账户余额', '退款异常，请核对账户余额', '退款失败'],
      unknown: ['已提交，等待答复', '处理中，稍后到账', '退款成功', '退款异常，需人工处理', '退款失败'],
    });
    expect(REFUND_STATUSES).toEqual(['PENDING', 'PROCESSING', 'SUCCESS', 'ABNORMAL', 'FAILED']);
  });

  it('names only the rail the money goes back by, in short Chinese, for operators and customers alike', () => {
    for (const rail of RAILS) {
      for (const status of REFUND_STATUSES) {
        for (const reader of ['operator', 'customer'] as const) {
          const text = refundStatusText(status, rail, reader);
          expect(text, `${rail} ${status} ${reader}`).toMatch(/^[^A-Za-z]{2,24}$/);
          if (rail !== 'wechat') expect(text, `${rail} ${status} ${reader}`).not.toContain('微信');
          if (rail !== 'alipay') expect(text, `${rail} ${status} ${reader}`).not.toContain('支付宝');
          // Customers are never sent to a merchant platform.
          if (reader === 'customer') expect(text).not.toContain('商户平台');
        }
      }
    }
  });

  it('tells the customer where the money is once it is back, and that finance sends a transfer refund', () => {
    expect(refundStatusText('SUCCESS', 'balance', 'customer')).toBe('已退回账户余额');
    expect(refundStatusText('SUCCESS', 'alipay', 'customer')).toBe('已退回支付宝');
    expect(refundStatusText('SUCCESS', 'wechat', 'customer')).toBe('已退回微信支付');
    expect(refundStatusText('SUCCESS', 'transfer', 'customer')).toBe('已退回付款账户');
    expect(refundStatusText('PROCESSING', 'transfer', 'customer')).toBe('财务转账退回中，预计1-3个工作日到账');
    expect(refundStatusText('PROCESSING', 'alipay', 'customer')).toBe('退款处理中，预计1-3个工作日到账');
    expect(refundStatusText('ABNORMAL', 'alipay', 'customer')).toBe('退款遇到问题，客服正在处理');
  });

  it('shows no stored code for a status it does not know', () => {
    expect(refundStatusText('CLOSED', 'wechat')).toBe('退款状态未知');
    expect(refundStatusText('CLOSED', 'wechat', 'customer')).toBe('退款处理中');
  });

  it('takes the balance as the rail of a refund routed there, else the rail that paid', () => {
    expect(refundRail('balance', 'alipay')).toBe('balance');
    expect(refundRail('original', 'alipay')).toBe('alipay');
    expect(refundRail('original', 'transfer')).toBe('transfer');
    expect(refundRail('original', null)).toBe(null);
  });
});
