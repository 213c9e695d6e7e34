// Promotion: attribution from the promotion cookies at registration, sellers, commission accrued exactly once per
// paid order (duplicate payment callbacks), reversal on refund, and withdrawals that can never take commission twice.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMMISSION_STATE } from '../../src/lib/commission-rules';
import { applyTransaction } from '../../src/server/domain/payments';
import { ageSmsCodes, userIdOf } from '../helpers/accounts';
import { callApi, cookieJar, latestCode, resetDb } from '../helpers/api';
import {
  availableCommissionFen,
  closeOrderQuietly,
  commissionEntries,
  reverseCommission,
  unpaidOrderWithPayment,
} from '../helpers/money';
import { operatorCookie } from '../helpers/operators';
import { freshIp, invitationCount, markVerified, newUser, seedDemoTrust, withdrawals } from '../helpers/trust';

beforeEach(async () => {
  await resetDb();
  await seedDemoTrust();
});

/** Register a phone by SMS carrying promotion cookies, as a browser that followed a link would. */
async function registerWithCookies(phone: string, cookies: string): Promise<string> {
  const ip = freshIp();
  await callApi('User.GetCode', { phone }, { ip });
  const res = await callApi('User.LoginRegister', { phone, code: await latestCode(phone) }, { ip, cookie: cookies });
  if (res.body.E) throw new Error(res.body.E);
  return cookieJar(res.setCookies);
}

/** An unpaid order with a pending payment attempt, as checkout leaves it. */
async function unpaidOrder(userPhone: string, orderNo: string, payFen: number, productType = 10): Promise<void> {
  await unpaidOrderWithPayment(await userIdOf(userPhone), orderNo, payFen, productType);
}

const amountOf = async (orderNo: string) => (await commissionEntries()).find((e) => e.orderNo === orderNo)?.amountFen;

const paidCallback = (orderNo: string, fen: number) =>
  applyTransaction(
    env.DB,
    {
      outTradeNo: `P${orderNo}`,
      tradeState: 'SUCCESS',
      transactionId: `T${orderNo}`,
      amountTotalFen: fen,
      currency: 'CNY',
    },
    Date.now(),
  );

describe('attribution at registration', () => {
  it('credits the promoter whose code is in the did cookie, once, and never oneself', async () => {
    const promoter = await newUser('13800000001');
    const opened = await callApi('UserPromotion.AddUserPromotion', {}, { cookie: promoter });
    const code = opened.body.P?.code as string;
    expect(opened.body.P?.link).toBe(`https://portal.test/?did=${code}`);
    expect((await callApi('UserPromotion.AddUserPromotion', {}, { cookie: promoter })).body.P?.code).toBe(code);

    await registerWithCookies('13800000002', `did=${code}; keyword=${encodeURIComponent('代理IP')}`);
    await registerWithCookies('13800000003', 'did=nosuchcode');
    const details = await callApi('UserPromotion.GetInvitationDetails', {}, { cookie: promoter });
    expect(details.body.P?.total).toBe(1);
    expect(details.body.P?.list[0]?.inviteePhone).toBe('138****0002');
    expect(await invitationCount('代理IP')).toBe(1);
    // Logging in again later with another promoter's cookie changes nothing.
    await ageSmsCodes();
    await registerWithCookies('13800000002', 'did=othercode');
    expect(await invitationCount()).toBe(1);
  });

  it('assigns the seller of a from=seller link and shows the seller phone in mineInfo', async () => {
    const cookie = await registerWithCookies('13800000004', 'did=seller01; from=seller');
    const mine = await callApi('User.GetMineInfo', {}, { cookie });
    expect(mine.body.P?.sellerInfo).toEqual({ sellerPhone: '13600136000' });
    const plain = await newUser('13800000005');
    expect((await callApi('User.GetMineInfo', {}, { cookie: plain })).body.P?.sellerInfo).toBeNull();
    expect(await invitationCount()).toBe(0);
  });
});

describe('commission', () => {
  async function promoterWithInvitee() {
    const promoter = await newUser('13800000011');
    const code = (await callApi('UserPromotion.AddUserPromotion', {}, { cookie: promoter })).body.P?.code;
    await registerWithCookies('13800000012', `did=${code}`);
    return promoter;
  }

  it('accrues once per paid order under duplicate callbacks: 20% on the first order, 10% after, floored', async () => {
    const promoter = await promoterWithInvitee();
    await unpaidOrder('13800000012', 'ORD1', 9999);
    const outcomes = await Promise.all([
      paidCallback('ORD1', 9999),
      paidCallback('ORD1', 9999),
      paidCallback('ORD1', 9999),
    ]);
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(1);
    expect(await commissionEntries()).toHaveLength(1);
    expect(await amountOf('ORD1')).toBe(1999); // 1999.8

    await unpaidOrder('13800000012', 'ORD2', 5005, 30);
    await paidCallback('ORD2', 5005);
    expect(await amountOf('ORD2')).toBe(400); // 8% of 50.05

    const details = await callApi('UserPromotion.GetCommissionDetails', {}, { cookie: promoter });
    expect(details.body.P?.list.map((e) => [e.orderNo, e.isFirst])).toEqual([
      ['ORD2', false],
      ['ORD1', true],
    ]);
    const info = await callApi('UserPromotion.GetUserPromotion', {}, { cookie: promoter });
    expect(info.body.P?.summary.availableFen).toBe(2399);
  });

  it('pays nothing for uninvited buyers and unpaid orders', async () => {
    await newUser('13800000021');
    await unpaidOrder('13800000021', 'ORD3', 10000);
    await paidCallback('ORD3', 10000);
    await promoterWithInvitee();
    await unpaidOrder('13800000012', 'ORD4', 10000);
    await closeOrderQuietly('ORD4');
    await paidCallback('ORD4', 10000); // money for a closed order: refunded, no commission
    expect(await commissionEntries()).toHaveLength(0);
  });

  it('reverses the commission of a refunded order, also after it was withdrawn', async () => {
    const promoter = await promoterWithInvitee();
    await markVerified('13800000011');
    await unpaidOrder('13800000012', 'ORD5', 30000);
    await paidCallback('ORD5', 30000);
    await reverseCommission('ORD5');
    await reverseCommission('ORD5');
    expect((await commissionEntries()).find((e) => e.orderNo === 'ORD5')?.state).toBe(COMMISSION_STATE.reversed);
    expect(await commissionEntries()).toHaveLength(1);

    await unpaidOrder('13800000012', 'ORD6', 60000);
    await paidCallback('ORD6', 60000);
    expect(
      (await callApi('UserPromotion.Withdraw', { accountName: '张三', accountNo: '13800000011' }, { cookie: promoter }))
        .body.P,
    ).toMatchObject({ amountFen: 6000 });
    await reverseCommission('ORD6');
    await reverseCommission('ORD6');
    expect(await availableCommissionFen()).toBe(-6000);
  });
});

describe('withdrawals', () => {
  async function earner(fen: number) {
    const promoter = await newUser('13800000031');
    await markVerified('13800000031');
    const code = (await callApi('UserPromotion.AddUserPromotion', {}, { cookie: promoter })).body.P?.code;
    await registerWithCookies('13800000032', `did=${code}`);
    await unpaidOrder('13800000032', 'ORDW', fen);
    await paidCallback('ORDW', fen);
    return promoter;
  }

  it('takes the commission once under concurrent requests and keeps an audit trail', async () => {
    const cookie = await earner(50000); // 20% = 10000 fen
    const tries = await Promise.all(
      Array.from({ length: 6 }, () =>
        callApi('UserPromotion.Withdraw', { accountName: '张三', accountNo: 'zhang@example.com' }, { cookie }),
      ),
    );
    expect(tries.filter((t) => t.body.P).length).toBe(1);
    expect(tries.filter((t) => t.body.E).length).toBe(5);
    expect((await withdrawals()).map((w) => w.amountFen)).toEqual([10000]);
    expect((await commissionEntries()).filter((e) => e.state === COMMISSION_STATE.available)).toHaveLength(0);
    const again = await callApi(
      'UserPromotion.Withdraw',
      { accountName: '张三', accountNo: 'zhang@example.com' },
      { cookie },
    );
    expect(again.body.E).toBe('已有处理中的提现申请，请等待处理完成');

    const op = await operatorCookie('finance');
    const id = (await withdrawals())[0]?.id ?? 0;
    expect((await callApi('UserPromotion.ReviewWithdrawal', { id, decision: 'paid' }, { cookie: op })).body.E).toBe(
      '该提现申请状态已变化，请刷新后重试',
    );
    expect((await callApi('UserPromotion.ReviewWithdrawal', { id, decision: 'approve' }, { cookie })).status).toBe(403);
    expect(
      (await callApi('UserPromotion.ReviewWithdrawal', { id, decision: 'approve' }, { cookie: op })).body.P,
    ).toEqual({ state: 2 });
    expect(
      (await callApi('UserPromotion.ReviewWithdrawal', { id, decision: 'paid', note: '支付宝转账' }, { cookie: op }))
        .body.P,
    ).toEqual({ state: 3 });
    const summary = await callApi('UserPromotion.GetUserPromotion', {}, { cookie });
    expect(summary.body.P?.summary).toMatchObject({ availableFen: 0, withdrawnFen: 10000 });
    const queue = await callApi('UserPromotion.WithdrawalQueue', { state: 3 }, { cookie: op });
    expect(queue.body.P?.list[0]?.events.map((e) => e.toState)).toEqual([1, 2, 3]);
    // Paid is final: nothing can be withdrawn again.
    expect(
      (await callApi('UserPromotion.Withdraw', { accountName: '张三', accountNo: 'zhang@example.com' }, { cookie }))
        .body.E,
    ).toBe('可提现佣金不足最低提现金额');
  });

  it('returns the commission to available when the operator rejects', async () => {
    const cookie = await earner(50000);
    await callApi('UserPromotion.Withdraw', { accountName: '张三', accountNo: '13800000031' }, { cookie });
    const op = await operatorCookie('finance');
    const id = (await withdrawals())[0]?.id ?? 0;
    await callApi('UserPromotion.ReviewWithdrawal', { id, decision: 'reject', note: '账号有误' }, { cookie: op });
    expect(await availableCommissionFen()).toBe(10000);
    expect(
      (await callApi('UserPromotion.Withdraw', { accountName: '张三', accountNo: '13800000031' }, { cookie })).body.P,
    ).toMatchObject({ amountFen: 10000 });
  });

  it('refuses amounts under the minimum and unverified users', async () => {
    const cookie = await earner(1000); // 200 fen
    expect(
      (await callApi('UserPromotion.Withdraw', { accountName: '张三', accountNo: '13800000031' }, { cookie })).body.E,
    ).toBe('可提现佣金不足最低提现金额');
    const plain = await newUser('13800000041');
    expect(
      (await callApi('UserPromotion.Withdraw', { accountName: '张三', accountNo: '13800000041' }, { cookie: plain }))
        .body.E,
    ).toBe('请先完成实名认证');
    expect(await withdrawals()).toHaveLength(0);
  });
});
