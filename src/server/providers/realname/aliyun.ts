// Production face verification: Aliyun Cloudauth (2019-03-07) InitFaceVerify / DescribeFaceVerify for the PC and H5 web flow.

import type { Acs3Response } from '../aliyun/signature';
import { callAcs3Rpc, defaultFetch, vendorCode } from '../aliyun/signature';
import type { FaceVerifyInit, FaceVerifyProvider } from './types';

export const CLOUDAUTH_VERSION = '2019-03-07';

/**
 * ID_PRO is the financial-grade real-person scheme whose web integration returns a CertifyUrl and compares the face
 * against the authoritative record for CertName/CertNo; PV_FV is the liveness-plus-face-compare web scheme.
 */
export type FaceVerifyProductCode = 'ID_PRO' | 'PV_FV';

export interface AliyunFaceVerifyOptions {
  accessKeyId: string;
  accessKeySecret: string;
  /** Scene id created in the Cloudauth console. */
  sceneId: number | string;
  endpoint?: string;
  productCode?: FaceVerifyProductCode;
  fetch?: typeof fetch;
  now?: () => number;
}

function resultObject(res: Acs3Response, action: string): Record<string, unknown> {
  // Cloudauth signals success with Code "200"; anything else (including gateway errors) is a refusal.
  if (String(res.body.Code ?? '') !== '200') {
    const requestId = typeof res.body.RequestId === 'string' ? ` (RequestId ${res.body.RequestId})` : '';
    throw new Error(`aliyun cloudauth: ${action} failed: ${vendorCode(res)}${requestId}`);
  }
  const result = res.body.ResultObject;
  if (!result || typeof result !== 'object') throw new Error(`aliyun cloudauth: ${action} returned no ResultObject`);
  return result as Record<string, unknown>;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : value == null ? '' : String(value));

/** A FaceVerifyProvider backed by Aliyun Cloudauth's web (PC/H5) face verification. */
export function createAliyunFaceVerify(opts: AliyunFaceVerifyOptions): FaceVerifyProvider {
  const call = {
    accessKeyId: opts.accessKeyId,
    accessKeySecret: opts.accessKeySecret,
    host: opts.endpoint ?? 'cloudauth.aliyuncs.com',
    fetch: opts.fetch ?? defaultFetch(),
    now: opts.now ?? Date.now,
  };
  const sceneId = String(opts.sceneId);
  return {
    name: 'aliyun',
    async init(req: FaceVerifyInit) {
      const res = await callAcs3Rpc(call, 'InitFaceVerify', CLOUDAUTH_VERSION, {
        SceneId: sceneId,
        OuterOrderNo: req.outerOrderNo,
        ProductCode: opts.productCode ?? 'ID_PRO',
        CertType: 'IDENTITY_CARD',
        CertName: req.certName,
        CertNo: req.certNo,
        ReturnUrl: req.returnUrl,
        MetaInfo: req.metaInfo,
      });
      const result = resultObject(res, 'InitFaceVerify');
      const certifyId = str(result.CertifyId);
      const certifyUrl = str(result.CertifyUrl);
      if (!certifyId || !certifyUrl)
        throw new Error('aliyun cloudauth: InitFaceVerify returned no CertifyId/CertifyUrl');
      return { certifyId, certifyUrl };
    },
    async describe(certifyId: string) {
      const res = await callAcs3Rpc(call, 'DescribeFaceVerify', CLOUDAUTH_VERSION, {
        SceneId: sceneId,
        CertifyId: certifyId,
      });
      const result = resultObject(res, 'DescribeFaceVerify');
      return { passed: result.Passed === 'T', subCode: str(result.SubCode) };
    },
  };
}
