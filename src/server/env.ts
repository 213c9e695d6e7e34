// The Worker's bindings and its one validated configuration. Every variable and secret is read here, through one zod
// schema, once per isolate (per bindings object); the rest of the code sees typed AppConfig fields only. Secrets come
// from Workers secrets (.dev.vars locally); only the transport key pair may also be known to the client. The names are
// documented in docs/operations.md (tests/unit/operations-config.test.ts keeps the two equal).
import 'server-only';
import { z } from 'zod';
import type { AlipayCredentials as AlipayClientOptions } from './providers/pay/alipay';
import type { WechatPayOptions } from './providers/pay/wechat';
import { DEV_TRANSPORT_IV_HEX, DEV_TRANSPORT_KEY_HEX, type TransportKey, transportKeyFromHex } from '../lib/envelope';

/** '' counts as not set, like a missing variable. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const text = optional(z.string());

const configSchema = z.object({
  // Fail closed: a missing or unknown APP_ENV means production (development routes off, secrets required).
  APP_ENV: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(['production', 'development', 'test']).catch('production'),
  ),
  API_ENVELOPE: optional(z.enum(['aes', 'json', 'any'])),
  API_AES_KEY: optional(z.string().regex(/^[0-9a-f]{64}$/i)),
  API_AES_IV: optional(z.string().regex(/^[0-9a-f]{32}$/i)),
  PORTAL_ORIGIN: optional(z.string().url()),
  API_BASE_URL: text,
  SESSION_SECRET: optional(z.string().min(32)),
  CHAT_SIGN_SECRET: optional(z.string().min(32)),
  CHAT_SCRIPT_URL: text,
  SMS_PROVIDER: optional(z.enum(['aliyun', 'outbox'])),
  ALIYUN_ACCESS_KEY_ID: text,
  ALIYUN_ACCESS_KEY_SECRET: text,
  ALIYUN_SMS_SIGN_NAME: text,
  ALIYUN_SMS_TEMPLATE_CODE: text,
  ALIYUN_SMS_RENEW_TEMPLATE_CODE: text,
  ALIYUN_FACE_SCENE_ID: text,
  FACE_VERIFY_PROVIDER: text,
  ID_ENCRYPTION_KEY: text,
  NODE_SECRET_KEY: optional(z.string().regex(/^[0-9a-f]{64}$/i)),
  PAY_PROVIDER: text,
  WECHATPAY_MCHID: text,
  WECHATPAY_APPID: text,
  WECHATPAY_MERCHANT_SERIAL_NO: text,
  WECHATPAY_MERCHANT_PRIVATE_KEY: text,
  WECHATPAY_PUBLIC_KEY: text,
  WECHATPAY_PUBLIC_KEY_ID: text,
  WECHATPAY_API_V3_KEY: text,
  WECHATPAY_NOTIFY_URL: text,
  WECHAT_MP_APPSECRET: text,
  ALIPAY_APP_ID: text,
  ALIPAY_SELLER_ID: text,
  ALIPAY_APP_PRIVATE_KEY: text,
  ALIPAY_PUBLIC_KEY: text,
  ALIPAY_GATEWAY: optional(z.string().url()),
  ALIPAY_NOTIFY_URL: text,
  TRANSFER_ACCOUNT_NAME: text,
  TRANSFER_BANK_NAME: text,
  TRANSFER_ACCOUNT_NO: text,
  RETENTION_DAYS: text,
  BUILD_ID: text,
});

/** Every variable and secret the Worker reads (all through readConfig). */
export type ConfigName = keyof typeof configSchema.shape;
export const CONFIG_NAMES = Object.keys(configSchema.shape) as ConfigName[];

/**
 * The Worker's bindings: the resources from the generated CloudflareBindings, and the configuration names as unknown
 * values, so reading one anywhere but through readConfig does not give a usable value (and unknown names do not
 * compile).
 */
export type Bindings = Pick<CloudflareBindings, 'DB' | 'KV' | 'FILES' | 'CUSTOMER_RECORDS' | 'NODE_LEASES'> &
  Partial<Pick<CloudflareBindings, 'ASSETS'>> & { readonly [K in ConfigName]?: unknown };

/** The path WeChat Pay posts notifications to (default notify URL = portal origin + this). */
export const NOTIFY_PATH = '/pay/notify/wechat';

/** The path Alipay posts notifications to (default notify URL = portal origin + this). */
export const ALIPAY_NOTIFY_PATH = '/pay/notify/alipay';
/** Alipay's production gateway. */
export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do';

/** A real merchant's Alipay settings (the application, its key, Alipay's public key, where notifications go). */
export type AlipayCredentials = Pick<
  AlipayClientOptions,
  'appId' | 'sellerId' | 'appPrivateKeyPem' | 'alipayPublicKeyPem' | 'gateway' | 'notifyUrl'
>;

/** A real merchant's WeChat Pay settings: the client's credentials and where notifications go. */
export type WechatPayCredentials = Pick<
  WechatPayOptions,
  | 'mchid'
  | 'appid'
  | 'merchantSerialNo'
  | 'merchantPrivateKeyPem'
  | 'platformPublicKeyPem'
  | 'platformPublicKeyId'
  | 'apiV3Key'
> & { notifyUrl: string };

export interface IdentityConfig {
  /** Seals identity data and operators' TOTP secrets at rest. */
  idEncryptionKey: string;
  faceProvider: 'aliyun' | 'simulator';
  aliyunFaceSceneId: string | undefined;
}

/** The company account customers pay by bank transfer (对公转账, docs/decisions/227). */
export interface TransferAccount {
  /** 户名 */
  accountName: string;
  /** 开户行 */
  bankName: string;
  /** 账号 */
  accountNo: string;
}

/** The demo account of development and tests (the .dev.vars.example values); production sets its own or has none. */
export const DEV_TRANSFER_ACCOUNT: TransferAccount = {
  accountName: '示例网络科技有限公司',
  bankName: '招商银行股份有限公司上海分行营业部',
  accountNo: '1219 0000 0000 0000 001',
};

export interface AppConfig {
  appEnv: 'production' | 'development' | 'test';
  isProduction: boolean;
  /** Which envelopes /api accepts: production is 'aes' only. */
  envelope: 'aes' | 'json' | 'any';
  transportKey: TransportKey;
  portalOrigin: string | undefined;
  /** Server components call this backend over fetch instead of in process (optional). */
  apiBaseUrl: string | undefined;
  sessionSecret: string;
  /** Keys the customer-service user signature (User.getUserSign); never the SMS-code HMAC key. */
  chatSignSecret: string;
  /** Where the online-chat widget script is loaded from (optional). */
  chatScriptUrl: string | undefined;
  smsProvider: 'aliyun' | 'outbox';
  /** Cookies carry Secure (production). */
  secureCookies: boolean;
  /** Responses carry Strict-Transport-Security (production). */
  hsts: boolean;
  /** RETENTION_DAYS as an integer, when set (the retention job applies its legal minimum). */
  retentionDays: number | undefined;
  /** The BUILD_ID variable (fallback when no build id was compiled in). */
  buildId: string | undefined;
  /** Aliyun credentials for SMS and face verification; the providers say what is missing when they need it. */
  aliyun: {
    accessKeyId: string | undefined;
    accessKeySecret: string | undefined;
    smsSignName: string | undefined;
    smsTemplateCode: string | undefined;
    /** The renew_notice template (auto-renew notices by SMS); without it they are 站内通知 only. */
    smsRenewTemplateCode: string | undefined;
  };
  /** Real-name settings; reading them throws in production without the identity key or with the face simulator. */
  readonly identity: IdentityConfig;
  /**
   * NODE_SECRET_KEY: the AES-256-GCM key (64 hex characters) sealing proxy nodes' signing secrets at rest
   * (docs/decisions/162). Reading it throws in production when it is not set.
   */
  readonly nodeSecretKey: string;
  /** The company account for bank transfers; null (transfers not offered) in production without all three names. */
  transferAccount: TransferAccount | null;
  /** Payment: which provider, and WeChat Pay's merchant settings (null with the names missing when incomplete). */
  pay: {
    kind: 'wechat' | 'simulator';
    wechat: WechatPayCredentials | null;
    missing: string[];
    /**
     * Alipay: the real application's settings (null with the names missing when incomplete: then production offers
     * WeChat Pay only). Development and tests pay through the local stand-in whenever `kind` is 'simulator'.
     */
    alipay: AlipayCredentials | null;
    alipayMissing: string[];
    /**
     * The official account's AppSecret (the account whose appid is WECHATPAY_APPID): JSAPI payment inside WeChat's
     * browser needs it to learn the payer's openid; null when not set (then WeChat's browser shows the QR code).
     */
    wechatMpSecret: string | null;
  };
}

const DEV_SESSION_SECRET = 'development-only-session-secret-change-me-0123456789';
const DEV_CHAT_SIGN_SECRET = 'development-only-chat-sign-secret-change-me-0123456789';
/** Development-only identity key (the .dev.vars.example value); production must set ID_ENCRYPTION_KEY. */
export const DEV_ID_ENCRYPTION_KEY = 'development-only-identity-key-change-me-0123456789abcdef';

/** Development-only node-secret key (the .dev.vars.example value); production must set NODE_SECRET_KEY. */
export const DEV_NODE_SECRET_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

type Raw = z.output<typeof configSchema>;

/** PEM secrets may be stored with literal \n sequences. */
const pemText = (v: string): string => (v.includes('\\n') ? v.replace(/\\n/g, '\n') : v);

function identityOf(raw: Raw, isProduction: boolean): IdentityConfig {
  const key = raw.ID_ENCRYPTION_KEY;
  const wanted = raw.FACE_VERIFY_PROVIDER;
  if (isProduction) {
    if (!key || key.length < 32) throw new Error('production configuration is missing: ID_ENCRYPTION_KEY');
    if (wanted && wanted !== 'aliyun') throw new Error('FACE_VERIFY_PROVIDER must be aliyun in production');
  }
  return {
    idEncryptionKey: key ?? DEV_ID_ENCRYPTION_KEY,
    // The simulator can never serve production: production always verifies through Aliyun.
    faceProvider: isProduction ? 'aliyun' : wanted === 'aliyun' ? 'aliyun' : 'simulator',
    aliyunFaceSceneId: raw.ALIYUN_FACE_SCENE_ID,
  };
}

function payOf(raw: Raw, isProduction: boolean): AppConfig['pay'] {
  const need = {
    WECHATPAY_MCHID: raw.WECHATPAY_MCHID,
    WECHATPAY_APPID: raw.WECHATPAY_APPID,
    WECHATPAY_MERCHANT_SERIAL_NO: raw.WECHATPAY_MERCHANT_SERIAL_NO,
    WECHATPAY_MERCHANT_PRIVATE_KEY: raw.WECHATPAY_MERCHANT_PRIVATE_KEY,
    WECHATPAY_PUBLIC_KEY: raw.WECHATPAY_PUBLIC_KEY,
    WECHATPAY_PUBLIC_KEY_ID: raw.WECHATPAY_PUBLIC_KEY_ID,
    WECHATPAY_API_V3_KEY: raw.WECHATPAY_API_V3_KEY,
  };
  const missing = Object.entries(need)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  const notifyUrl = raw.WECHATPAY_NOTIFY_URL ?? (raw.PORTAL_ORIGIN ? `${raw.PORTAL_ORIGIN}${NOTIFY_PATH}` : '');
  if (!notifyUrl) missing.push('WECHATPAY_NOTIFY_URL or PORTAL_ORIGIN');
  const alipayNeed = {
    ALIPAY_APP_ID: raw.ALIPAY_APP_ID,
    ALIPAY_SELLER_ID: raw.ALIPAY_SELLER_ID,
    ALIPAY_APP_PRIVATE_KEY: raw.ALIPAY_APP_PRIVATE_KEY,
    ALIPAY_PUBLIC_KEY: raw.ALIPAY_PUBLIC_KEY,
  };
  const alipayMissing = Object.entries(alipayNeed)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  const alipayNotifyUrl =
    raw.ALIPAY_NOTIFY_URL ?? (raw.PORTAL_ORIGIN ? `${raw.PORTAL_ORIGIN}${ALIPAY_NOTIFY_PATH}` : '');
  if (!alipayNotifyUrl) alipayMissing.push('ALIPAY_NOTIFY_URL or PORTAL_ORIGIN');
  return {
    // Production always uses WeChat Pay; elsewhere the simulator unless PAY_PROVIDER=wechat.
    kind: isProduction || raw.PAY_PROVIDER === 'wechat' ? 'wechat' : 'simulator',
    missing,
    alipayMissing,
    wechatMpSecret: raw.WECHAT_MP_APPSECRET ?? null,
    alipay: alipayMissing.length
      ? null
      : {
          appId: alipayNeed.ALIPAY_APP_ID as string,
          sellerId: alipayNeed.ALIPAY_SELLER_ID as string,
          appPrivateKeyPem: pemText(alipayNeed.ALIPAY_APP_PRIVATE_KEY as string),
          alipayPublicKeyPem: pemText(alipayNeed.ALIPAY_PUBLIC_KEY as string),
          gateway: raw.ALIPAY_GATEWAY ?? ALIPAY_GATEWAY,
          notifyUrl: alipayNotifyUrl,
        },
    wechat: missing.length
      ? null
      : {
          mchid: need.WECHATPAY_MCHID as string,
          appid: need.WECHATPAY_APPID as string,
          merchantSerialNo: need.WECHATPAY_MERCHANT_SERIAL_NO as string,
          merchantPrivateKeyPem: pemText(need.WECHATPAY_MERCHANT_PRIVATE_KEY as string),
          platformPublicKeyPem: pemText(need.WECHATPAY_PUBLIC_KEY as string),
          platformPublicKeyId: need.WECHATPAY_PUBLIC_KEY_ID as string,
          apiV3Key: need.WECHATPAY_API_V3_KEY as string,
          notifyUrl,
        },
  };
}

function transferAccountOf(raw: Raw, isProduction: boolean): TransferAccount | null {
  const { TRANSFER_ACCOUNT_NAME: accountName, TRANSFER_BANK_NAME: bankName, TRANSFER_ACCOUNT_NO: accountNo } = raw;
  if (accountName && bankName && accountNo) return { accountName, bankName, accountNo };
  return isProduction ? null : DEV_TRANSFER_ACCOUNT;
}

function parseConfig(env: Bindings): AppConfig {
  const raw = configSchema.parse(Object.fromEntries(CONFIG_NAMES.map((k) => [k, env[k]])));
  const isProduction = raw.APP_ENV === 'production';
  if (isProduction) {
    const missing = (['API_AES_KEY', 'API_AES_IV', 'SESSION_SECRET', 'CHAT_SIGN_SECRET'] as const).filter(
      (k) => !raw[k],
    );
    if (missing.length) throw new Error(`production configuration is missing: ${missing.join(', ')}`);
  }
  const retention = Number(raw.RETENTION_DAYS);
  return {
    appEnv: raw.APP_ENV,
    isProduction,
    envelope: isProduction ? 'aes' : (raw.API_ENVELOPE ?? 'any'),
    transportKey: transportKeyFromHex(raw.API_AES_KEY ?? DEV_TRANSPORT_KEY_HEX, raw.API_AES_IV ?? DEV_TRANSPORT_IV_HEX),
    portalOrigin: raw.PORTAL_ORIGIN,
    apiBaseUrl: raw.API_BASE_URL,
    sessionSecret: raw.SESSION_SECRET ?? DEV_SESSION_SECRET,
    chatSignSecret: raw.CHAT_SIGN_SECRET ?? DEV_CHAT_SIGN_SECRET,
    chatScriptUrl: raw.CHAT_SCRIPT_URL,
    // The outbox can never serve production: production always sends through Aliyun.
    smsProvider: isProduction ? 'aliyun' : (raw.SMS_PROVIDER ?? 'outbox'),
    secureCookies: isProduction,
    hsts: isProduction,
    retentionDays: raw.RETENTION_DAYS !== undefined && Number.isInteger(retention) ? retention : undefined,
    buildId: raw.BUILD_ID,
    aliyun: {
      accessKeyId: raw.ALIYUN_ACCESS_KEY_ID,
      accessKeySecret: raw.ALIYUN_ACCESS_KEY_SECRET,
      smsSignName: raw.ALIYUN_SMS_SIGN_NAME,
      smsTemplateCode: raw.ALIYUN_SMS_TEMPLATE_CODE,
      smsRenewTemplateCode: raw.ALIYUN_SMS_RENEW_TEMPLATE_CODE,
    },
    get identity() {
      return identityOf(raw, isProduction);
    },
    get nodeSecretKey() {
      if (raw.NODE_SECRET_KEY) return raw.NODE_SECRET_KEY.toLowerCase();
      if (isProduction) throw new Error('production configuration is missing: NODE_SECRET_KEY');
      return DEV_NODE_SECRET_KEY;
    },
    pay: payOf(raw, isProduction),
    transferAccount: transferAccountOf(raw, isProduction),
  };
}

const parsed = new WeakMap<object, AppConfig>();

/**
 * The validated configuration of these bindings, parsed once per isolate (the bindings object is the isolate's).
 * Throws (loudly, and again on the next call) if production is misconfigured.
 */
export function readConfig(env: Bindings): AppConfig {
  const known = parsed.get(env);
  if (known) return known;
  const config = parseConfig(env);
  parsed.set(env, config);
  return config;
}
