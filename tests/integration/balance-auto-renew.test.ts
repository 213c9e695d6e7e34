// Auto-renew from balance (docs/decisions/225), with the clock moved: a notice 72 hours before expiry (once), the
// renewal within 24 hours of expiry through the same balance payment as the cashier's (once per period), and a clear
// notice instead of an order when the balance is short; nothing for a package the customer did not opt in.
import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE_MS } from '../../src/lib/time';
import { listOutbox } from '../../src/server/db/sms';
import { runScheduledJobs } from '../../src/server/jobs';
import { userIdOf } from '../helpers/accounts';
import { callApi } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { firstRenewalOrder, noticesOf, packageFacts, packagesOfUser, renewalOrderCount } from '../helpers/money';
import { aliyunSmsEnv, fakeSendSmsGateway, noticeSmsOf } from '../helpers/sms';

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟
const PHONE = '13800002101';
const HOUR = 3_600_000;

beforeEach(resetWithCatalogue);

const hourly = (now: number) => runScheduledJobs('7 * * * *', env as never, now);

async function topUp(cookie: string, amountFen: number) {
  const placed = await callApi('Balance.TopUp', { amountFen }, { cookie });
  const code = await callApi('PayOrder.GetPayCode', { orderNo: placed.body.P?.orderNo ?? '' }, { cookie });
  await payInSimulator(code.body.P?.codeUrl ?? '');
}

/** A customer with one package bought by WeChat, and its id and expiry. */
async function customerWithPackage(phone = PHONE) {
  const cookie = await verifiedBuyer(phone);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  await payInSimulator(order.codeUrl ?? '');
  const [pkg] = await packagesOfUser(await userIdOf(phone));
  if (!pkg) throw new Error('no package');
  return { cookie, packageId: pkg.id, expiry: pkg.expiresAt };
}

const notices = async (phone = PHONE) => noticesOf(await userIdOf(phone));
const balanceFen = async (cookie: string) => (await callApi('Balance.Get', {}, { cookie })).body.P?.balanceFen;
const expiryOf = async (packageId: number) => (await packageFacts(packageId))?.expiresAt;
const renewOrders = renewalOrderCount;
/** The auto-renew texts the customer's phone received (the development outbox), oldest first. */
const renewTexts = async (phone = PHONE) =>
  (await listOutbox(env.DB, phone, 50))
    .filter((m) => m.template === 'renew_notice')
    .map((m) => m.params)
    .reverse();

describe('auto-renew from balance', () => {
  it('notices 72 h before, renews once within 24 h from balance, and says so', async () => {
    const { cookie, packageId, expiry } = await customerWithPackage();
    await topUp(cookie, 10_000);
    const on = await callApi('Balance.SetAutoRenew', { packageId, enabled: true }, { cookie });
    expect(on.body.P).toEqual({ packageId, autoRenew: true });
    const listed = await callApi('Proxy.GetProxys', { type: 10 }, { cookie });
    expect(listed.body.P?.list.find((p) => p.id === packageId)?.autoRenew).toBe(true);

    await hourly(expiry - 100 * HOUR);
    expect(await notices()).toHaveLength(0);

    await hourly(expiry - 70 * HOUR);
    await hourly(expiry - 69 * HOUR);
    const [upcoming, ...more] = await notices();
    expect(more).toHaveLength(0);
    expect(upcoming?.title).toBe('套餐即将自动续费');
    expect(upcoming?.html).toContain('当前余额 ¥100.00');
    expect(await renewOrders()).toBe(0);
    // The same notice reached the phone once, with the package, its expiry and the amounts in 元.
    const texts = await renewTexts();
    expect(texts).toHaveLength(1);
    const price = /扣除 ¥([\d.]+)/.exec(upcoming?.html ?? '')?.[1];
    expect(price).toMatch(/^\d+\.\d{2}$/);
    expect(texts[0]).toMatchObject({ balance: '100.00', amount: price });
    expect(texts[0]?.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

    await hourly(expiry - 23 * HOUR);
    await hourly(expiry - 22 * HOUR);
    expect(await renewOrders()).toBe(1);
    const renewal = await firstRenewalOrder();
    expect(renewal?.state).toBe(2);
    expect(await balanceFen(cookie)).toBe(10_000 - (renewal?.payFen ?? 0));
    expect(await expiryOf(packageId)).toBe(expiry + 365 * 86_400_000);
    const ledger = (await callApi('Balance.Get', {}, { cookie })).body.P?.list ?? [];
    expect(ledger[0]).toMatchObject({
      kindText: '自动续费',
      amountFen: -(renewal?.payFen ?? 0),
      orderNo: renewal?.orderNo,
    });
    expect((await notices()).map((n) => n.title)).toEqual(['套餐即将自动续费', '套餐已自动续费']);
  });

  it('a short balance places no order and says so once; after a top-up the next run renews', async () => {
    const { cookie, packageId, expiry } = await customerWithPackage();
    await topUp(cookie, 1_000);
    await callApi('Balance.SetAutoRenew', { packageId, enabled: true }, { cookie });
    await hourly(expiry - 23 * HOUR);
    await hourly(expiry - 22 * HOUR);
    expect(await renewOrders()).toBe(0);
    const short = (await notices()).filter((n) => n.title === '余额不足，自动续费未成功');
    expect(short).toHaveLength(1);
    expect(short[0]?.html).toContain('当前账户余额 ¥10.00');
    expect(await balanceFen(cookie)).toBe(1_000);
    // Texted once too, with the balance that is short.
    expect((await renewTexts()).map((t) => t.balance)).toEqual(['10.00']);

    await topUp(cookie, 5_000);
    await hourly(expiry - 21 * HOUR);
    expect(await renewOrders()).toBe(1);
    expect(await expiryOf(packageId)).toBe(expiry + 365 * 86_400_000);
  });

  it('renews nothing for a package not opted in or turned off, and refuses another customer’s package', async () => {
    const { cookie, packageId, expiry } = await customerWithPackage();
    await topUp(cookie, 10_000);
    await callApi('Balance.SetAutoRenew', { packageId, enabled: true }, { cookie });
    await callApi('Balance.SetAutoRenew', { packageId, enabled: false }, { cookie });
    await hourly(expiry - 70 * HOUR);
    await hourly(expiry - 23 * HOUR);
    expect(await renewOrders()).toBe(0);
    expect(await notices()).toHaveLength(0);
    expect(await balanceFen(cookie)).toBe(10_000);

    const other = await verifiedBuyer('13800002102');
    const refused = await callApi('Balance.SetAutoRenew', { packageId, enabled: true }, { cookie: other });
    expect(refused.body.E).toBe('该套餐不支持自动续费（仅限购买的、未停用的套餐）');
  });
});

// The notice texts through the real Aliyun provider and a fake SendSms gateway (docs/decisions/242): a send that fails
// with an error worth retrying is tried again by the five-minute job after its backoff (1, 5, 30 minutes), once however
// many runs race; a permanent refusal is not tried again; a notice whose renewal already happened is dropped.
describe('auto-renew notice SMS retries', () => {
  const aliyun = aliyunSmsEnv();
  const hourlyAliyun = (now: number) => runScheduledJobs('7 * * * *', aliyun as never, now);
  const everyFive = (now: number) => runScheduledJobs('*/5 * * * *', aliyun as never, now);
  afterEach(() => vi.unstubAllGlobals());

  it('a throttled or unanswered notice is sent by the next run after its backoff, once even when two runs race', async () => {
    const gateway = fakeSendSmsGateway();
    const { cookie, packageId, expiry } = await customerWithPackage();
    await topUp(cookie, 10_000);
    await callApi('Balance.SetAutoRenew', { packageId, enabled: true }, { cookie });
    gateway.script(PHONE, ['network', 'isv.BUSINESS_LIMIT_CONTROL', 'OK']);

    const t0 = expiry - 70 * HOUR;
    await hourlyAliyun(t0);
    expect((await notices()).map((n) => n.title)).toEqual(['套餐即将自动续费']);
    expect(gateway.renewCalls(PHONE)).toHaveLength(1);
    expect(gateway.renewTexts(PHONE)).toHaveLength(0);

    // Not before its backoff (1 minute after the first try).
    await everyFive(t0 + 30_000);
    expect(gateway.renewCalls(PHONE)).toHaveLength(1);

    // Two runs at once: one second try between them, throttled (next in 5 minutes).
    await Promise.all([everyFive(t0 + MINUTE_MS), everyFive(t0 + MINUTE_MS)]);
    expect(gateway.renewCalls(PHONE).map((c) => c.answer)).toEqual(['network', 'isv.BUSINESS_LIMIT_CONTROL']);
    await everyFive(t0 + 5 * MINUTE_MS);
    expect(gateway.renewCalls(PHONE)).toHaveLength(2);

    // The third try goes out, once, with the notice's own figures; nothing after it.
    await Promise.all([everyFive(t0 + 6 * MINUTE_MS), everyFive(t0 + 6 * MINUTE_MS), everyFive(t0 + 6 * MINUTE_MS)]);
    await everyFive(t0 + 60 * MINUTE_MS);
    await hourlyAliyun(t0 + HOUR);
    const texts = gateway.renewTexts(PHONE);
    expect(texts).toHaveLength(1);
    expect(gateway.renewCalls(PHONE)).toHaveLength(3);
    expect(texts[0]?.params).toMatchObject({ balance: '100.00' });
    expect(texts[0]?.params).toEqual(gateway.renewCalls(PHONE)[0]?.params);
    expect(await noticeSmsOf(PHONE)).toEqual([
      { state: 'sent', attempts: 3, reason: null, lastError: expect.stringContaining('isv.BUSINESS_LIMIT_CONTROL') },
    ]);
  });

  it('gives up after the 30-minute retry and records why', async () => {
    const gateway = fakeSendSmsGateway();
    const { cookie, packageId, expiry } = await customerWithPackage();
    await topUp(cookie, 10_000);
    await callApi('Balance.SetAutoRenew', { packageId, enabled: true }, { cookie });
    gateway.script(PHONE, Array(10).fill('isv.BUSINESS_LIMIT_CONTROL'));
    const t0 = expiry - 70 * HOUR;
    await hourlyAliyun(t0);
    for (let minute = 5; minute <= 120; minute += 5) await everyFive(t0 + minute * MINUTE_MS);
    // Tries at 0, +1 (run at 5), +5 (run at 10) and +30 minutes (run at 40), then no more.
    expect(gateway.renewCalls(PHONE)).toHaveLength(4);
    expect(gateway.renewTexts(PHONE)).toHaveLength(0);
    expect(await noticeSmsOf(PHONE)).toEqual([
      {
        state: 'failed',
        attempts: 4,
        reason: 'gave_up',
        lastError: expect.stringContaining('isv.BUSINESS_LIMIT_CONTROL'),
      },
    ]);
    // The daily purge keeps the row 30 days past the period it spoke of.
    await runScheduledJobs('17 3 * * *', aliyun as never, expiry + 29 * 24 * HOUR);
    expect(await noticeSmsOf(PHONE)).toHaveLength(1);
    await runScheduledJobs('17 3 * * *', aliyun as never, expiry + 31 * 24 * HOUR);
    expect(await noticeSmsOf(PHONE)).toHaveLength(0);
  });

  it('a permanent refusal is not tried again, while a throttled notice of the same run is', async () => {
    const gateway = fakeSendSmsGateway();
    const OTHER = '13800002103';
    const customers = [await customerWithPackage(), await customerWithPackage(OTHER)];
    for (const c of customers) {
      await topUp(c.cookie, 10_000);
      await callApi('Balance.SetAutoRenew', { packageId: c.packageId, enabled: true }, { cookie: c.cookie });
    }
    gateway.script(PHONE, ['isv.MOBILE_NUMBER_ILLEGAL']);
    gateway.script(OTHER, ['isv.BUSINESS_LIMIT_CONTROL']);
    const t0 = Math.max(...customers.map((c) => c.expiry)) - 70 * HOUR;
    await hourlyAliyun(t0);
    for (let minute = 5; minute <= 60; minute += 5) await everyFive(t0 + minute * MINUTE_MS);

    expect(gateway.renewCalls(PHONE).map((c) => c.answer)).toEqual(['isv.MOBILE_NUMBER_ILLEGAL']);
    expect(gateway.renewCalls(OTHER).map((c) => c.answer)).toEqual(['isv.BUSINESS_LIMIT_CONTROL', 'OK']);
    expect(await noticeSmsOf(PHONE)).toEqual([
      {
        state: 'failed',
        attempts: 1,
        reason: 'permanent',
        lastError: expect.stringContaining('isv.MOBILE_NUMBER_ILLEGAL'),
      },
    ]);
    // The 站内通知 stands either way.
    expect((await notices()).map((n) => n.title)).toEqual(['套餐即将自动续费']);
  });

  it('drops a failed short-balance text once the renewal happened, and still retries one whose renewal did not', async () => {
    const gateway = fakeSendSmsGateway();
    const OTHER = '13800002104';
    const renewed = await customerWithPackage();
    const still = await customerWithPackage(OTHER);
    for (const c of [renewed, still]) {
      await topUp(c.cookie, 1_000);
      await callApi('Balance.SetAutoRenew', { packageId: c.packageId, enabled: true }, { cookie: c.cookie });
    }
    gateway.script(PHONE, ['isv.BUSINESS_LIMIT_CONTROL']);
    gateway.script(OTHER, ['isv.BUSINESS_LIMIT_CONTROL']);
    const t0 = Math.max(renewed.expiry, still.expiry) - 23 * HOUR;
    await hourlyAliyun(t0);
    expect(gateway.renewCalls(PHONE).map((c) => c.params.balance)).toEqual(['10.00']);
    expect(await renewOrders()).toBe(0);

    // The first customer tops up and the next auto-renew run (before the retry is due) renews the package.
    await topUp(renewed.cookie, 10_000);
    await hourlyAliyun(t0 + 30_000);
    expect(await renewOrders()).toBe(1);
    expect(await expiryOf(renewed.packageId)).toBe(renewed.expiry + 365 * 86_400_000);

    await everyFive(t0 + 5 * MINUTE_MS);
    await everyFive(t0 + 60 * MINUTE_MS);
    expect(gateway.renewCalls(PHONE)).toHaveLength(1);
    expect(gateway.renewTexts(OTHER).map((c) => c.params.balance)).toEqual(['10.00']);
    expect(await noticeSmsOf(PHONE)).toEqual([
      {
        state: 'dropped',
        attempts: 1,
        reason: 'no_longer_applies',
        lastError: expect.stringContaining('isv.BUSINESS_LIMIT_CONTROL'),
      },
    ]);
  });
});
