// Chooses the payment provider. Production: always the real WeChat Pay client, configured from Workers secrets
// (the simulator cannot be selected). Development and tests: the same client pointed at the in-worker simulator
// (requests go through the simulator's handler in process, signed and verified exactly as with WeChat), unless
// PAY_PROVIDER=wechat chooses a real merchant.
import 'server-only';
import { type AppConfig, type Bindings, NOTIFY_PATH } from '../../env';
import { handleSimulatorApi, SIMULATOR_MERCHANT, SIMULATOR_MOUNT, simulatorKeys } from './simulator';
import type { PayProvider } from './types';
import { createWechatPay } from './wechat';

export { NOTIFY_PATH };

export interface PaySetup {
  provider: PayProvider;
  /** The notify_url sent with each order. */
  notifyUrl: string;
}

function realWechat(config: AppConfig, now: () => number): PaySetup {
  const merchant = config.pay.wechat;
  if (!merchant) throw new Error(`WeChat Pay is not configured: ${config.pay.missing.join(', ')}`);
  const { notifyUrl, ...credentials } = merchant;
  return { notifyUrl, provider: createWechatPay({ ...credentials, now }) };
}

/** The payment provider for this request's configuration. */
export async function payProviderFor(
  env: Bindings,
  config: AppConfig,
  now: () => number = Date.now,
): Promise<PaySetup> {
  if (config.pay.kind === 'wechat') return realWechat(config, now);
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
