// Chooses the face-verification provider: Aliyun in production (always), the local simulator in development unless
// FACE_VERIFY_PROVIDER=aliyun.
import 'server-only';
import type { AppConfig, Bindings } from '../../env';
import { createAliyunFaceVerify } from './aliyun';
import { createFaceSimulator } from './simulator';
import type { FaceVerifyProvider } from './types';

/** The face-verification provider for this request's configuration. */
export function faceVerifyProviderFor(env: Bindings, config: AppConfig, now: () => number): FaceVerifyProvider {
  const identity = config.identity;
  if (identity.faceProvider === 'simulator' && !config.isProduction) return createFaceSimulator(env.DB, now);
  const { accessKeyId, accessKeySecret } = config.aliyun;
  if (!accessKeyId || !accessKeySecret || !identity.aliyunFaceSceneId) {
    throw new Error('Aliyun face verification is not configured (ALIYUN_ACCESS_KEY_ID/SECRET, ALIYUN_FACE_SCENE_ID)');
  }
  return createAliyunFaceVerify({ accessKeyId, accessKeySecret, sceneId: identity.aliyunFaceSceneId, now });
}
