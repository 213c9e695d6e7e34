// Typed bindings and configuration of the Worker, validated once per isolate. Secrets come from Workers secrets
// (.dev.vars locally); only the transport key pair may also be known to the client.
import { z } from 'zod';
import { DEV_TRANSPORT_IV_HEX, DEV_TRANSPORT_KEY_HEX, type TransportKey, transportKeyFromHex } from '../lib/envelope';

export interface Bindings {
  DB: D1Database;
  KV: KVNamespace;
  FILES: R2Bucket;
  ASSETS?: Fetcher;
  APP_ENV?: string;
  API_ENVELOPE?: string;
  API_AES_KEY?: string;
  API_AES_IV?: string;
  PORTAL_ORIGIN?: string;
  API_BASE_URL?: string;
  SESSION_SECRET?: string;
  CHAT_SIGN_SECRET?: string;
  SMS_PROVIDER?: string;
  ALIYUN_ACCESS_KEY_ID?: string;
  ALIYUN_ACCESS_KEY_SECRET?: string;
  ALIYUN_SMS_SIGN_NAME?: string;
  ALIYUN_SMS_TEMPLATE_CODE?: string;
  BUILD_ID?: string;
  /** Days extraction logs and the like are kept (src/server/jobs/retention.ts; never below 180). */
  RETENTION_DAYS?: string;
  [key: string]: unknown;
}

const configSchema = z.object({
  // Fail closed: a missing or unknown APP_ENV means production (development routes off, secrets required).
  APP_ENV: z.enum(['production', 'development', 'test']).catch('production'),
  API_ENVELOPE: z.enum(['aes', 'json', 'any']).default('any'),
  API_AES_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i)
    .optional(),
  API_AES_IV: z
    .string()
    .regex(/^[0-9a-f]{32}$/i)
    .optional(),
  PORTAL_ORIGIN: z.string().url().optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  CHAT_SIGN_SECRET: z.string().min(32).optional(),
  SMS_PROVIDER: z.enum(['aliyun', 'outbox']).optional(),
});

export interface AppConfig {
  appEnv: 'production' | 'development' | 'test';
  isProduction: boolean;
  /** Which envelopes /api accepts: production is 'aes' only. */
  envelope: 'aes' | 'json' | 'any';
  transportKey: TransportKey;
  portalOrigin: string | undefined;
  sessionSecret: string;
  /** Keys the customer-service user signature (User.getUserSign); never the SMS-code HMAC key. */
  chatSignSecret: string;
  smsProvider: 'aliyun' | 'outbox';
}

const DEV_SESSION_SECRET = 'development-only-session-secret-change-me-0123456789';
const DEV_CHAT_SIGN_SECRET = 'development-only-chat-sign-secret-change-me-0123456789';

/** Read and validate configuration from the bindings. Throws (once, loudly) if production is misconfigured. */
export function readConfig(env: Bindings): AppConfig {
  const raw = configSchema.parse({
    APP_ENV: env.APP_ENV || undefined,
    API_ENVELOPE: env.API_ENVELOPE || undefined,
    API_AES_KEY: env.API_AES_KEY || undefined,
    API_AES_IV: env.API_AES_IV || undefined,
    PORTAL_ORIGIN: env.PORTAL_ORIGIN || undefined,
    SESSION_SECRET: env.SESSION_SECRET || undefined,
    CHAT_SIGN_SECRET: env.CHAT_SIGN_SECRET || undefined,
    SMS_PROVIDER: env.SMS_PROVIDER || undefined,
  });
  const isProduction = raw.APP_ENV === 'production';
  if (isProduction) {
    const missing = (['API_AES_KEY', 'API_AES_IV', 'SESSION_SECRET', 'CHAT_SIGN_SECRET'] as const).filter(
      (k) => !raw[k],
    );
    if (missing.length) throw new Error(`production configuration is missing: ${missing.join(', ')}`);
  }
  return {
    appEnv: raw.APP_ENV,
    isProduction,
    envelope: isProduction ? 'aes' : raw.API_ENVELOPE,
    transportKey: transportKeyFromHex(raw.API_AES_KEY ?? DEV_TRANSPORT_KEY_HEX, raw.API_AES_IV ?? DEV_TRANSPORT_IV_HEX),
    portalOrigin: raw.PORTAL_ORIGIN,
    sessionSecret: raw.SESSION_SECRET ?? DEV_SESSION_SECRET,
    chatSignSecret: raw.CHAT_SIGN_SECRET ?? DEV_CHAT_SIGN_SECRET,
    // The outbox can never serve production: production always sends through Aliyun.
    smsProvider: isProduction ? 'aliyun' : (raw.SMS_PROVIDER ?? 'outbox'),
  };
}
