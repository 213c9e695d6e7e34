// Paying inside WeChat's own browser (docs/decisions/237): a phone whose browser is WeChat's pays with JSAPI. The first
// time, the official account's silent web authorisation (the stand-in) learns who the payer is and brings them back to
// the cashier, which resumes; WeChat's payment sheet (the stand-in checks the merchant's signature as WeChat's client
// does) pays, and the cashier shows the order paid. No QR code is ever shown to scan with the same phone.
import { expect, test } from '@playwright/test';
import { hydrated, logIn } from './helpers';

const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 MicroMessenger/8.0.50.2600(0x28003237) NetType/WIFI Language/zh_CN';

test.use({ userAgent: WECHAT_UA });

test('inside WeChat a customer pays with WeChat in place: authorised once, then WeChat’s payment sheet @phone', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await logIn(page, '13800138000');
  await page.goto('/buy?type=10');
  await hydrated(page);
  const payText = (await page.getByTestId('quote-pay').textContent()) ?? '';
  await page.getByTestId('buy-now').click();
  const dialog = page.getByRole('dialog', { name: '支付订单' });
  await expect(dialog.getByTestId('pay-amount')).toHaveText(payText);
  await expect(dialog.getByRole('img', { name: '微信支付二维码' })).toHaveCount(0);
  const text = (await dialog.textContent()) ?? '';
  const orderNo = /订单号\s*(D\d{14}[0-9A-Z]{16})/.exec(text)?.[1] ?? '';
  expect(orderNo).not.toBe('');

  // 微信支付: the silent authorisation returns to the cashier, which resumes and opens WeChat's payment sheet.
  await dialog.getByTestId('open-wechat').click();
  await expect(page).toHaveURL(/\/dev\/wechatpay\/pay\?out_trade_no=/, { timeout: 20_000 });
  await expect(page.getByTestId('sim-state')).toHaveText('待支付');
  await page.getByTestId('sim-pay').click();
  await expect(page.getByTestId('sim-result')).toHaveText('支付成功');
  await page.getByTestId('sim-return').click();
  await expect(page).toHaveURL(`/payPage?orderNo=${orderNo}`);
  await expect(page.getByTestId('pay-page-state')).toHaveText('已支付');
  await page.screenshot({ path: '.tmp/shots/wechat-jsapi-paid.png', fullPage: true });

  // The next order skips the authorisation: WeChat already told us who this payer is.
  const authorisations: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/connect/oauth2/authorize')) authorisations.push(r.url());
  });
  await page.goto('/buy?type=10');
  await hydrated(page);
  await page.getByTestId('buy-now').click();
  await page.getByRole('dialog', { name: '支付订单' }).getByTestId('open-wechat').click();
  await expect(page).toHaveURL(/\/dev\/wechatpay\/pay\?out_trade_no=/, { timeout: 20_000 });
  await expect(page.getByTestId('sim-state')).toHaveText('待支付');
  expect(authorisations).toEqual([]);
});
