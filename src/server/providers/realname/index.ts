// Chooses the face-verification provider: Aliyun in production (always), the local simulator in development unless
// FACE_VERIFY_PROVIDER=aliyun.
import type { AppConfig, Bindings } from '../../env';
import type { TrustConfig } from '../../trust-env';
import { createAliyunFaceVerify } from './aliyun';
import { createFaceSimulator } from './simulator';
import type { FaceVerifyProvider } from './types';

/** The face-verification provider for this request's configuration. */
export function faceVerifyProviderFor(
  env: Bindings,
  config: AppConfig,
  trust: TrustConfig,
  now: () => number,
): FaceVerifyProvider {
  if (trust.faceProvider === 'simulator' && !config.isProduction) return createFaceSimulator(env.DB, now);
  const { ALIYUN_ACCESS_KEY_ID, ALIYUN_ACCESS_KEY_SECRET } = env;
  if (!ALIYUN_ACCESS_KEY_ID || !ALIYUN_ACCESS_KEY_SECRET || !trust.aliyunFaceSceneId) {
    throw new Error('Aliyun face verification is not configured (ALIYUN_ACCESS_KEY_ID/SECRET, ALIYUN_FACE_SCENE_ID)');
  }
  return createAliyunFaceVerify({
    accessKeyId: ALIYUN_ACCESS_KEY_ID,
    accessKeySecret: ALIYUN_ACCESS_KEY_SECRET,
    sceneId: trust.aliyunFaceSceneId,
    now,
  });
}
