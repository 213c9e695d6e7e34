// Chooses the payment provider. Production: always the real WeChat Pay client, configured from Workers secrets
// (the simulator cannot be selected). Development and tests: the same client pointed at the in-worker simulator
// (requests go through the simulator's handler in process, signed and verified exactly as with WeChat), unless
// PAY_PROVIDER=wechat chooses a real merchant.
import 'server-only';
import { ALIPAY_NOTIFY_PATH, type AppConfig, type Bindings, NOTIFY_PATH } from '../../env';
import { type AlipayClient, createAlipay } from './alipay';
import {
  ALIPAY_SIMULATOR,
  ALIPAY_SIMULATOR_GATEWAY,
  alipaySimulatorKeys,
  handleAlipayGateway,
} from './alipay-simulator';
import {
  handleOAuthStandIn,
  handleSimulatorApi,
  SIMULATOR_MERCHANT,
  SIMULATOR_MOUNT,
  simulatorKeys,
  WECHAT_OAUTH_STAND_IN,
} from './simulator';
import type { PayProvider } from './types';
import { createWechatPay } from './wechat';
import { createWechatOAuth, type WechatOAuth } from './wechat-oauth';

export { ALIPAY_NOTIFY_PATH, NOTIFY_PATH };

/** The name a payment attempt records for an Alipay rail (payments.provider). */
export type AlipayRailName = 'alipay' | 'alipay-simulator';
export const ALIPAY_RAIL_NAMES: readonly string[] = ['alipay', 'alipay-simulator'] satisfies AlipayRailName[];

export interface AlipayRail {
  name: AlipayRailName;
  client: AlipayClient;
}

export interface PaySetup {
  /** WeChat Pay (or its simulator). */
  provider: PayProvider;
  /** The notify_url sent with each order. */
  notifyUrl: string;
  /** Alipay (or its stand-in); null when production has no Alipay application configured. */
  alipay: AlipayRail | null;
  /** The portal's origin ('' for same-site links locally): where a payer's browser comes back to. */
  portalOrigin: string;
  /** The official account's web authorisation for JSAPI payment; null when it is not configured. */
  wechatOAuth: WechatOAuth | null;
  /** Development: the stand-in page that plays WeixinJSBridge for a JSAPI payment (absent with the real WeChat). */
  jsapiStandIn?: string;
}

function realWechat(config: AppConfig, now: () => number): PaySetup {
  const merchant = config.pay.wechat;
  if (!merchant) throw new Error(`WeChat Pay is not configured: ${config.pay.missing.join(', ')}`);
  const { notifyUrl, ...credentials } = merchant;
  const alipay = config.pay.alipay;
  return {
    notifyUrl,
    portalOrigin: config.portalOrigin ?? '',
    provider: createWechatPay({ ...credentials, now }),
    wechatOAuth: config.pay.wechatMpSecret
      ? createWechatOAuth({ appid: credentials.appid, secret: config.pay.wechatMpSecret })
      : null,
    alipay: alipay ? { name: 'alipay', client: createAlipay({ ...alipay, now }) } : null,
  };
}

/** The local Alipay stand-in behind the real client: answered in process, signed and verified as Alipay would. */
async function standInAlipay(env: Bindings, config: AppConfig, now: () => number): Promise<AlipayRail> {
  const keys = await alipaySimulatorKeys(env.DB, config.isProduction, now());
  const origin = config.portalOrigin ?? '';
  return {
    name: 'alipay-simulator',
    client: createAlipay({
      appId: ALIPAY_SIMULATOR.appId,
      sellerId: ALIPAY_SIMULATOR.sellerId,
      appPrivateKeyPem: keys.appPrivatePem,
      alipayPublicKeyPem: keys.alipayPublicPem,
      // The browser is sent to the gateway for page and phone payments: same-site unless an origin is configured.
      gateway: `${origin}${ALIPAY_SIMULATOR_GATEWAY}`,
      notifyUrl: `${origin || 'http://127.0.0.1:8787'}${ALIPAY_NOTIFY_PATH}`,
      now,
      fetch: async (input, init) =>
        handleAlipayGateway(new Request(new URL(String(input), 'http://alipay-standin.internal'), init), env.DB, {
          now: now(),
          isProduction: config.isProduction,
          pageOrigin: origin,
        }),
    }),
  };
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
    alipay: await standInAlipay(env, config, now),
    portalOrigin: origin,
    wechatOAuth: createWechatOAuth({
      appid: SIMULATOR_MERCHANT.appid,
      secret: SIMULATOR_MERCHANT.mpSecret,
      // The browser goes to the stand-in's authorize page; the exchange is answered in process, as WeChat would.
      authorizeUrl: `${origin}${WECHAT_OAUTH_STAND_IN}/connect/oauth2/authorize`,
      tokenUrl: `http://wechat-oauth.internal${WECHAT_OAUTH_STAND_IN}/sns/oauth2/access_token`,
      fetch: async (input, init) =>
        handleOAuthStandIn(new Request(input as RequestInfo, init), env.DB, {
          now: now(),
          isProduction: config.isProduction,
        }),
    }),
    jsapiStandIn: `${origin}${SIMULATOR_MOUNT}/jsapi`,
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
