// The real-name face verification provider interface. Real: Aliyun Cloudauth web flow. Development: a simulator.

export interface FaceVerifyInit {
  /** Our own unique order id (max 32 alphanumerics), echoed back by the vendor for tracing. */
  outerOrderNo: string;
  certName: string;
  certNo: string;
  /** Where the vendor's face page sends the browser when the user finishes. */
  returnUrl: string;
  /** Browser environment string from the vendor's getMetaInfo() script, passed through untouched. */
  metaInfo?: string;
}

export interface FaceVerifyProvider {
  readonly name: 'aliyun' | 'simulator';
  /** Start a verification; the browser is sent to certifyUrl, certifyId is kept to query the result. */
  init(req: FaceVerifyInit): Promise<{ certifyId: string; certifyUrl: string }>;
  /** The server-side verdict for a certifyId; trust this, never the query string on the return URL. */
  describe(certifyId: string): Promise<{ passed: boolean; subCode: string }>;
}
