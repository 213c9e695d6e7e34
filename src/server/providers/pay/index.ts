// Chooses the payment provider. Production: always the real WeChat Pay client, configured from Workers secrets
// (the simulator cannot be selected). Development and tests: the same client pointed at the in-worker simulator
// (requests go through the simulator's handler in process, signed and verified exactly as with WeChat), unless
// PAY_PROVIDER=wechat chooses a real merchant.
import type { AppConfig, Bindings } from '../../env';
import { handleSimulatorApi, SIMULATOR_MERCHANT, SIMULATOR_MOUNT, simulatorKeys } from './simulator';
import type { PayProvider } from './types';
import { createWechatPay } from './wechat';

export const NOTIFY_PATH = '/pay/notify/wechat';

export interface PaySetup {
  provider: PayProvider;
  /** The notify_url sent with each order. */
  notifyUrl: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** PEM secrets may be stored with literal \n sequences. */
const pemText = (v: string): string => (v.includes('\\n') ? v.replace(/\\n/g, '\n') : v);

function realWechat(env: Bindings, config: AppConfig, now: () => number): PaySetup {
  const need = {
    WECHATPAY_MCHID: str(env.WECHATPAY_MCHID),
    WECHATPAY_APPID: str(env.WECHATPAY_APPID),
    WECHATPAY_MERCHANT_SERIAL_NO: str(env.WECHATPAY_MERCHANT_SERIAL_NO),
    WECHATPAY_MERCHANT_PRIVATE_KEY: str(env.WECHATPAY_MERCHANT_PRIVATE_KEY),
    WECHATPAY_PUBLIC_KEY: str(env.WECHATPAY_PUBLIC_KEY),
    WECHATPAY_PUBLIC_KEY_ID: str(env.WECHATPAY_PUBLIC_KEY_ID),
    WECHATPAY_API_V3_KEY: str(env.WECHATPAY_API_V3_KEY),
  };
  const missing = Object.entries(need)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  const notifyUrl =
    str(env.WECHATPAY_NOTIFY_URL) ?? (config.portalOrigin ? `${config.portalOrigin}${NOTIFY_PATH}` : '');
  if (!notifyUrl) missing.push('WECHATPAY_NOTIFY_URL or PORTAL_ORIGIN');
  if (missing.length) throw new Error(`WeChat Pay is not configured: ${missing.join(', ')}`);
  return {
    notifyUrl,
    provider: createWechatPay({
      mchid: need.WECHATPAY_MCHID as string,
      appid: need.WECHATPAY_APPID as string,
      merchantSerialNo: need.WECHATPAY_MERCHANT_SERIAL_NO as string,
      merchantPrivateKeyPem: pemText(need.WECHATPAY_MERCHANT_PRIVATE_KEY as string),
      platformPublicKeyPem: pemText(need.WECHATPAY_PUBLIC_KEY as string),
      platformPublicKeyId: need.WECHATPAY_PUBLIC_KEY_ID as string,
      apiV3Key: need.WECHATPAY_API_V3_KEY as string,
      now,
    }),
  };
}

/** Which provider this configuration uses: production is always 'wechat'. */
export function payProviderKind(env: Bindings, config: AppConfig): 'wechat' | 'simulator' {
  if (config.isProduction) return 'wechat';
  return env.PAY_PROVIDER === 'wechat' ? 'wechat' : 'simulator';
}

/** The payment provider for this request's configuration. */
export async function payProviderFor(
  env: Bindings,
  config: AppConfig,
  now: () => number = Date.now,
): Promise<PaySetup> {
  if (payProviderKind(env, config) === 'wechat') return realWechat(env, config, now);
  const keys = await simulatorKeys(env.DB, config.isProduction, now());
  const origin = config.portalOrigin ?? '';
  return {
    notifyUrl: `${origin || 'http://127.0.0.1:8787'}${NOTIFY_PATH}`,
    provider: createWechatPay({
      mchid: SIMULATOR_MERCHANT.mchid,
      appid: SIMULATOR_MERCHANT.appid,
      merchantSerialNo: SIMULATOR_MERCHANT.merchantSerialNo,
      merchantPrivateKeyPem: keys.merchantPrivatePem,
      platformPublicKeyPem: keys.platformPublicPem,
      platformPublicKeyId: SIMULATOR_MERCHANT.platformPublicKeyId,
      apiV3Key: keys.apiV3Key,
      baseUrl: `http://wechatpay-simulator.internal${SIMULATOR_MOUNT}`,
      // In process: the simulator's handler answers exactly what its /dev/wechatpay/v3/* routes answer.
      fetch: async (input, init) =>
        handleSimulatorApi(new Request(input as RequestInfo, init), env.DB, {
          now: now(),
          isProduction: config.isProduction,
          pageOrigin: origin,
        }),
      allowHttpNotify: true,
      providerName: 'simulator',
      now,
    }),
  };
}
