// Alipay's gateway protocol (RSA2), the client against the local stand-in: every request signed and every answer and
// notification verified to Alipay's documented rules. A forged, tampered, foreign or replayed notification is refused
// by the client; refunds are capped by what was paid and idempotent per request number.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { findAlipaySimTrade } from '../../src/server/db/alipay-simulator';
import {
  type AlipayClient,
  alipayAmountToFen,
  alipaySigningString,
  createAlipay,
  fenToAlipayAmount,
  parseAlipayTime,
  responseNodeOf,
} from '../../src/server/providers/pay/alipay';
import {
  ALIPAY_SIMULATOR,
  ALIPAY_SIMULATOR_GATEWAY,
  alipaySimulatorKeys,
  handleAlipayGateway,
  signedNotification,
  simulateAlipayPayment,
} from '../../src/server/providers/pay/alipay-simulator';
import { generatePair } from '../../src/server/providers/pay/simulator';

const NOW = Date.parse('2026-11-27T10:00:00+08:00');
const ORIGIN = 'http://127.0.0.1:8787';

async function client(over: { appPrivateKeyPem?: string; alipayPublicKeyPem?: string; sellerId?: string } = {}) {
  const keys = await alipaySimulatorKeys(env.DB, false, NOW);
  const requests: Record<string, string>[] = [];
  const c: AlipayClient = createAlipay({
    appId: ALIPAY_SIMULATOR.appId,
    sellerId: over.sellerId ?? ALIPAY_SIMULATOR.sellerId,
    appPrivateKeyPem: over.appPrivateKeyPem ?? keys.appPrivatePem,
    alipayPublicKeyPem: over.alipayPublicKeyPem ?? keys.alipayPublicPem,
    gateway: `${ORIGIN}${ALIPAY_SIMULATOR_GATEWAY}`,
    notifyUrl: `${ORIGIN}/pay/notify/alipay`,
    now: () => NOW,
    fetch: async (input, init) => {
      const req = new Request(input as RequestInfo, init);
      requests.push(Object.fromEntries(new URLSearchParams(await req.clone().text())));
      return handleAlipayGateway(req, env.DB, { now: NOW, isProduction: false, pageOrigin: ORIGIN });
    },
  });
  return { c, keys, requests };
}

const order = (outTradeNo: string, amountFen = 5561) => ({
  outTradeNo,
  subject: '短效动态IP 按量 50000个',
  amountFen,
  timeExpireMs: NOW + 2 * 3_600_000,
});

describe('the wire format', () => {
  it('signs every non-empty parameter but sign, sorted by key, values unencoded', () => {
    expect(alipaySigningString({ b: '2', a: '1', sign: 'x', empty: '', c: 'a b&c' })).toBe('a=1&b=2&c=a b&c');
    expect(alipaySigningString({ sign_type: 'RSA2', sign: 'x', a: '1' }, ['sign', 'sign_type'])).toBe('a=1');
  });

  it('writes amounts as yuan with two decimals and reads them back exactly', () => {
    expect(fenToAlipayAmount(5561)).toBe('55.61');
    expect(fenToAlipayAmount(1)).toBe('0.01');
    expect(fenToAlipayAmount(100_000)).toBe('1000.00');
    expect(alipayAmountToFen('55.61')).toBe(5561);
    expect(alipayAmountToFen('55.6')).toBe(5560);
    expect(alipayAmountToFen('55')).toBe(5500);
    expect(alipayAmountToFen('55.611')).toBeNull();
    expect(alipayAmountToFen('-1.00')).toBeNull();
    expect(() => fenToAlipayAmount(0)).toThrow();
    expect(parseAlipayTime('2026-11-27 10:00:00')).toBe(NOW);
  });

  it('cuts the signed response object byte for byte, braces inside strings included', () => {
    const raw = '{"alipay_trade_query_response":{"code":"10000","msg":"a}{\\"b","x":{"y":1}},"sign":"SIG"}';
    expect(responseNodeOf(raw, 'alipay_trade_query_response')).toEqual({
      node: '{"code":"10000","msg":"a}{\\"b","x":{"y":1}}',
      sign: 'SIG',
    });
    expect(responseNodeOf('{"other":{}}', 'alipay_trade_query_response')).toBeNull();
  });
});

describe('the client against the stand-in', () => {
  it('creates a QR order, sees it unpaid, then paid after the payer pays', async () => {
    const { c, requests } = await client();
    const { qrCode } = await c.precreate(order('AP2026112700001'));
    expect(qrCode).toBe(`${ORIGIN}/dev/alipay/pay?out_trade_no=AP2026112700001`);
    expect(requests[0]).toMatchObject({ method: 'alipay.trade.precreate', sign_type: 'RSA2', charset: 'utf-8' });
    expect(JSON.parse(requests[0]?.biz_content ?? '{}')).toMatchObject({ total_amount: '55.61' });
    expect((await c.query('AP2026112700001')).tradeStatus).toBe('WAIT_BUYER_PAY');
    expect((await c.query('AP2026112799999')).tradeStatus).toBe('NOT_EXIST');
    expect(
      await simulateAlipayPayment(env.DB, 'AP2026112700001', { now: NOW + 1000, isProduction: false }),
    ).not.toBeNull();
    const q = await c.query('AP2026112700001');
    expect(q).toMatchObject({ tradeStatus: 'TRADE_SUCCESS', totalFen: 5561, paidAtMs: NOW + 1000 });
  });

  it('a page payment is a signed redirect to the gateway that opens the cashier', async () => {
    const { c, keys } = await client();
    const url = new URL(
      await c.pagePayUrl({ ...order('AP2026112700002'), returnUrl: `${ORIGIN}/personalCenter/orderManager` }),
    );
    expect(url.searchParams.get('method')).toBe('alipay.trade.page.pay');
    expect(JSON.parse(url.searchParams.get('biz_content') ?? '{}').product_code).toBe('FAST_INSTANT_TRADE_PAY');
    const res = await handleAlipayGateway(new Request(url), env.DB, {
      now: NOW,
      isProduction: false,
      pageOrigin: ORIGIN,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${ORIGIN}/dev/alipay/pay?out_trade_no=AP2026112700002`);
    // The same URL with the amount changed no longer carries a valid signature.
    const biz = JSON.parse(url.searchParams.get('biz_content') ?? '{}');
    url.searchParams.set('biz_content', JSON.stringify({ ...biz, total_amount: '0.01' }));
    const forged = await handleAlipayGateway(new Request(url), env.DB, {
      now: NOW,
      isProduction: false,
      pageOrigin: ORIGIN,
    });
    expect(JSON.parse(await forged.text()).alipay_trade_page_pay_response.sub_code).toBe('isv.invalid-signature');
    expect(keys.appPublicPem).toContain('PUBLIC KEY');
  });

  it('refuses an answer signed by anyone but Alipay', async () => {
    const other = await generatePair();
    const { c } = await client({ alipayPublicKeyPem: other.publicPem });
    await expect(c.query('AP2026112700001')).rejects.toMatchObject({ code: 'paySignatureInvalid' });
  });

  it('a request signed with the wrong application key is refused by the gateway', async () => {
    const other = await generatePair();
    const { c } = await client({ appPrivateKeyPem: other.privatePem });
    await expect(c.query('AP2026112700001')).rejects.toMatchObject({ code: 'payUnavailable' });
  });

  it('refunds in parts up to what was paid, once per request number', async () => {
    const { c } = await client();
    await c.precreate(order('AP2026112700003', 1000));
    await simulateAlipayPayment(env.DB, 'AP2026112700003', { now: NOW, isProduction: false });
    const first = await c.refund({
      outTradeNo: 'AP2026112700003',
      outRequestNo: 'R1',
      refundFen: 600,
      reason: '部分退款',
    });
    expect(first).toMatchObject({ fundChange: true, refundedTotalFen: 600 });
    const again = await c.refund({
      outTradeNo: 'AP2026112700003',
      outRequestNo: 'R1',
      refundFen: 600,
      reason: '部分退款',
    });
    expect(again).toMatchObject({ fundChange: false, refundedTotalFen: 600 });
    await expect(
      c.refund({ outTradeNo: 'AP2026112700003', outRequestNo: 'R2', refundFen: 401, reason: '超额' }),
    ).rejects.toMatchObject({ code: 'payUnavailable' });
    const rest = await c.refund({ outTradeNo: 'AP2026112700003', outRequestNo: 'R3', refundFen: 400, reason: '余额' });
    expect(rest.refundedTotalFen).toBe(1000);
    expect((await findAlipaySimTrade(env.DB, 'AP2026112700003'))?.status).toBe('TRADE_CLOSED');
  });

  it('closes an unpaid trade and never a paid one', async () => {
    const { c } = await client();
    await c.precreate(order('AP2026112700004'));
    await c.close('AP2026112700004');
    expect((await c.query('AP2026112700004')).tradeStatus).toBe('TRADE_CLOSED');
    expect(await simulateAlipayPayment(env.DB, 'AP2026112700004', { now: NOW, isProduction: false })).toBeNull();
    await c.precreate(order('AP2026112700005'));
    await simulateAlipayPayment(env.DB, 'AP2026112700005', { now: NOW, isProduction: false });
    await expect(c.close('AP2026112700005')).rejects.toMatchObject({ code: 'payUnavailable' });
  });
});

describe('notifications', () => {
  it('trusts a notification signed by Alipay for this application and merchant', async () => {
    const { c } = await client();
    await c.precreate(order('AP2026112700006'));
    const paid = await simulateAlipayPayment(env.DB, 'AP2026112700006', { now: NOW, isProduction: false });
    const n = await c.parseNotification(paid?.body ?? '');
    expect(n).toMatchObject({ outTradeNo: 'AP2026112700006', tradeStatus: 'TRADE_SUCCESS', totalFen: 5561 });
    expect(paid?.notifyUrl).toBe(`${ORIGIN}/pay/notify/alipay`);
  });

  it('refuses a tampered amount, a foreign merchant, an unsigned or RSA1 body and a key that is not Alipay’s', async () => {
    const { c, keys } = await client();
    await c.precreate(order('AP2026112700007'));
    const paid = await simulateAlipayPayment(env.DB, 'AP2026112700007', { now: NOW, isProduction: false });
    const trade = paid?.trade;
    if (!paid || !trade) throw new Error('not paid');
    const tampered = new URLSearchParams(paid.body);
    tampered.set('total_amount', '0.01');
    await expect(c.parseNotification(tampered.toString())).rejects.toMatchObject({ code: 'paySignatureInvalid' });
    const unsigned = new URLSearchParams(paid.body);
    unsigned.delete('sign');
    await expect(c.parseNotification(unsigned.toString())).rejects.toMatchObject({ code: 'paySignatureInvalid' });
    const rsa1 = new URLSearchParams(paid.body);
    rsa1.set('sign_type', 'RSA');
    await expect(c.parseNotification(rsa1.toString())).rejects.toMatchObject({ code: 'paySignatureInvalid' });
    // Correctly signed by Alipay, but for another merchant's account.
    const foreign = await signedNotification(keys, trade, NOW, { seller_id: '2088999999999999' });
    await expect(c.parseNotification(foreign)).rejects.toMatchObject({ code: 'paySignatureInvalid' });
    // Signed by someone holding another key.
    const other = await generatePair();
    const forged = await signedNotification({ ...keys, alipayPrivatePem: other.privatePem }, trade, NOW);
    await expect(c.parseNotification(forged)).rejects.toMatchObject({ code: 'paySignatureInvalid' });
  });
});
