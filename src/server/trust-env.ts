// Configuration of the trust features (real-name verification and identity encryption), read from the bindings once
// per request. Production refuses to run without the identity key and never offers the face simulator.
import type { AppConfig, Bindings } from './env';

/** Development-only identity key (the .dev.vars.example value); production must set ID_ENCRYPTION_KEY. */
export const DEV_ID_ENCRYPTION_KEY = 'development-only-identity-key-change-me-0123456789abcdef';

export interface TrustConfig {
  idEncryptionKey: string;
  faceProvider: 'aliyun' | 'simulator';
  aliyunFaceSceneId: string | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Read the trust configuration. Throws in production when the identity key is missing or the simulator is asked for. */
export function readTrustConfig(env: Bindings, config: AppConfig): TrustConfig {
  const key = str(env.ID_ENCRYPTION_KEY);
  const wanted = str(env.FACE_VERIFY_PROVIDER);
  if (config.isProduction) {
    if (!key || key.length < 32) throw new Error('production configuration is missing: ID_ENCRYPTION_KEY');
    if (wanted && wanted !== 'aliyun') throw new Error('FACE_VERIFY_PROVIDER must be aliyun in production');
  }
  return {
    idEncryptionKey: key ?? DEV_ID_ENCRYPTION_KEY,
    // The simulator can never serve production: production always verifies through Aliyun.
    faceProvider: config.isProduction ? 'aliyun' : wanted === 'aliyun' ? 'aliyun' : 'simulator',
    aliyunFaceSceneId: str(env.ALIYUN_FACE_SCENE_ID),
  };
}
