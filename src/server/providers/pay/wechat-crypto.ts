// WeChat Pay API v3 cryptography over WebCrypto: PEM key import, SHA256-RSA2048 request/response signatures,
// the Authorization header, and AEAD_AES_256_GCM notification resources (both directions, for the simulator).
import { fromBase64, fromUtf8, toBase64, toHex, utf8 } from '../../../lib/bytes';

export const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';
export const RESOURCE_ALGORITHM = 'AEAD_AES_256_GCM';

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

function pemBody(pem: string, label: string): Uint8Array<ArrayBuffer> {
  const text = pem.trim();
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  if (!text.startsWith(begin) || !text.endsWith(end)) {
    // PKCS#1 ("RSA PRIVATE KEY") and certificates are the usual mistakes; WebCrypto takes neither.
    throw new Error(`expected a PEM "${label}" block`);
  }
  return fromBase64(text.slice(begin.length, text.length - end.length));
}

function requireRsa2048(key: CryptoKey): CryptoKey {
  const alg = key.algorithm as RsaHashedKeyAlgorithm;
  if (alg.modulusLength < 2048) throw new Error('RSA key shorter than 2048 bits');
  return key;
}

/** Import a PKCS#8 "PRIVATE KEY" PEM (the merchant apiclient_key.pem) for SHA256-RSA signing. */
export async function importPrivateKeyPem(pem: string): Promise<CryptoKey> {
  const der = pemBody(pem, 'PRIVATE KEY');
  return requireRsa2048(await crypto.subtle.importKey('pkcs8', der, RSA, false, ['sign']));
}

/** Import an SPKI "PUBLIC KEY" PEM (the WeChat Pay public key, PUB_KEY_ID_...) for SHA256-RSA verification. */
export async function importPublicKeyPem(pem: string): Promise<CryptoKey> {
  const der = pemBody(pem, 'PUBLIC KEY');
  return requireRsa2048(await crypto.subtle.importKey('spki', der, RSA, false, ['verify']));
}

/** RSASSA-PKCS1-v1_5 / SHA-256 signature of a UTF-8 message, base64. */
export async function rsaSign(privateKey: CryptoKey, message: string): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.sign(RSA, privateKey, utf8(message))));
}

/** Verify a base64 RSASSA-PKCS1-v1_5 / SHA-256 signature; false (never throws) on malformed input. */
export async function rsaVerify(publicKey: CryptoKey, message: string, signatureB64: string): Promise<boolean> {
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = fromBase64(signatureB64);
  } catch {
    return false;
  }
  if (signature.length === 0) return false;
  try {
    return await crypto.subtle.verify(RSA, publicKey, signature, utf8(message));
  } catch {
    return false;
  }
}

/** The string a merchant signs: METHOD\nPATH?QUERY\ntimestamp\nnonce\nbody\n (body is empty for GET). */
export function requestSignatureMessage(
  method: string,
  pathWithQuery: string,
  timestampSec: number | string,
  nonce: string,
  body: string,
): string {
  return `${method}\n${pathWithQuery}\n${timestampSec}\n${nonce}\n${body}\n`;
}

/** The string a merchant signs for WeixinJSBridge's getBrandWCPayRequest (JSAPI): appId\ntimeStamp\nnonceStr\npackage\n. */
export function jsapiSignMessage(appId: string, timeStamp: string, nonceStr: string, pkg: string): string {
  return `${appId}\n${timeStamp}\n${nonceStr}\n${pkg}\n`;
}

/** The string WeChat signs for responses and callbacks: timestamp\nnonce\nbody\n. */
export function responseSignatureMessage(timestampSec: number | string, nonce: string, body: string): string {
  return `${timestampSec}\n${nonce}\n${body}\n`;
}

// Header values are quoted without escaping, so anything but these would break the header or smuggle fields.
const SAFE_FIELD = /^[0-9A-Za-z_\-.]{1,64}$/;

export interface AuthorizationInput {
  mchid: string;
  serialNo: string;
  privateKey: CryptoKey;
  method: string;
  pathWithQuery: string;
  body: string;
  timestampSec: number;
  nonce: string;
}

/** Build the WECHATPAY2-SHA256-RSA2048 Authorization header for one request. */
export async function buildAuthorization(a: AuthorizationInput): Promise<string> {
  for (const [name, value] of [
    ['mchid', a.mchid],
    ['serial_no', a.serialNo],
    ['nonce_str', a.nonce],
  ] as const) {
    if (!SAFE_FIELD.test(value)) throw new Error(`invalid ${name} for Authorization`);
  }
  if (!Number.isSafeInteger(a.timestampSec) || a.timestampSec < 0) throw new Error('invalid timestamp');
  if (!a.pathWithQuery.startsWith('/')) throw new Error('path must be absolute (start with /)');
  const method = a.method.toUpperCase();
  const signature = await rsaSign(
    a.privateKey,
    requestSignatureMessage(method, a.pathWithQuery, a.timestampSec, a.nonce, a.body),
  );
  return (
    `${AUTH_SCHEME} mchid="${a.mchid}",nonce_str="${a.nonce}",signature="${signature}",` +
    `timestamp="${a.timestampSec}",serial_no="${a.serialNo}"`
  );
}

export interface ParsedAuthorization {
  mchid: string;
  nonce: string;
  signature: string;
  timestampSec: number;
  serialNo: string;
}

/** Parse an Authorization header built by buildAuthorization (any field order); null when malformed. */
export function parseAuthorization(header: string): ParsedAuthorization | null {
  const prefix = `${AUTH_SCHEME} `;
  if (!header.startsWith(prefix)) return null;
  const fields = new Map<string, string>();
  for (const part of header.slice(prefix.length).split(',')) {
    const m = /^\s*([a-z_]+)="([^"]*)"\s*$/.exec(part);
    if (!m) return null;
    const [, key, value] = m as unknown as [string, string, string];
    if (fields.has(key)) return null;
    fields.set(key, value);
  }
  const mchid = fields.get('mchid');
  const nonce = fields.get('nonce_str');
  const signature = fields.get('signature');
  const timestamp = fields.get('timestamp');
  const serialNo = fields.get('serial_no');
  if (!mchid || !nonce || !signature || !timestamp || !serialNo || !/^\d{1,12}$/.test(timestamp)) return null;
  return { mchid, nonce, signature, timestampSec: Number(timestamp), serialNo };
}

export interface CallbackSignatureInput {
  /** Wechatpay-Timestamp (seconds, as sent). */
  timestamp: string;
  /** Wechatpay-Nonce */
  nonce: string;
  /** The raw body exactly as received; re-serialised JSON will not verify. */
  body: string;
  /** Wechatpay-Signature */
  signatureB64: string;
  publicKey: CryptoKey;
}

/** Verify the Wechatpay-Signature of a callback or API response over timestamp\nnonce\nbody\n. */
export function verifyCallbackSignature(v: CallbackSignatureInput): Promise<boolean> {
  return rsaVerify(v.publicKey, responseSignatureMessage(v.timestamp, v.nonce, v.body), v.signatureB64);
}

/** Simulator side: the Wechatpay-Signature value for a callback or response body. */
export function signCallback(s: {
  timestamp: string;
  nonce: string;
  body: string;
  privateKey: CryptoKey;
}): Promise<string> {
  return rsaSign(s.privateKey, responseSignatureMessage(s.timestamp, s.nonce, s.body));
}

async function importApiV3Key(apiV3Key: string, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  const raw = utf8(apiV3Key);
  // The APIv3 key is a 32-character string used byte-for-byte as the AES-256 key.
  if (raw.length !== 32) throw new Error('APIv3 key must be exactly 32 bytes');
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, [usage]);
}

export interface ResourceCipherInput {
  nonce: string;
  associatedData: string;
  apiV3Key: string;
}

/** Decrypt an AEAD_AES_256_GCM resource (base64 ciphertext with the 16-byte tag appended) to UTF-8 text. */
export async function decryptResource(r: ResourceCipherInput & { ciphertextB64: string }): Promise<string> {
  const key = await importApiV3Key(r.apiV3Key, 'decrypt');
  const data = fromBase64(r.ciphertextB64);
  if (data.length < 16) throw new Error('ciphertext shorter than the GCM tag');
  if (r.nonce.length === 0) throw new Error('empty nonce');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: utf8(r.nonce), additionalData: utf8(r.associatedData), tagLength: 128 },
    key,
    data,
  );
  return fromUtf8(new Uint8Array(plain));
}

/** Simulator side: encrypt UTF-8 text as an AEAD_AES_256_GCM resource (base64 of ciphertext || tag). */
export async function encryptResource(r: ResourceCipherInput & { plaintext: string }): Promise<string> {
  const key = await importApiV3Key(r.apiV3Key, 'encrypt');
  if (r.nonce.length === 0) throw new Error('empty nonce');
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: utf8(r.nonce), additionalData: utf8(r.associatedData), tagLength: 128 },
    key,
    utf8(r.plaintext),
  );
  return toBase64(new Uint8Array(sealed));
}

/** A random nonce of `bytes` random bytes as upper-case hex (32 characters by default, like WeChat's SDKs). */
export function randomNonce(bytes = 16): string {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes))).toUpperCase();
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random 12-character alphanumeric nonce, the shape WeChat uses for resource.nonce (12 bytes = GCM IV). */
export function randomResourceNonce(): string {
  let out = '';
  const buf = new Uint8Array(1);
  while (out.length < 12) {
    crypto.getRandomValues(buf);
    const v = buf[0] as number;
    if (v < 248) out += ALNUM[v % 62]; // 248 = 4 * 62: rejection keeps the alphabet uniform
  }
  return out;
}
