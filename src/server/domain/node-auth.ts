// Proxy-node authentication: every /node/v1/* call is signed with the node's own secret.
//   X-Node-Id: <id>   X-Node-Timestamp: <epoch ms>   X-Node-Signature: hex(HMAC-SHA256(secret, canonical))
//   canonical = METHOD \n PATH \n TIMESTAMP \n hex(SHA-256(body))
// A signature older or newer than NODE_CLOCK_SKEW_MS is refused, so a captured call cannot be replayed later.
import { MINUTE_MS } from '../../lib/time';

export const NODE_CLOCK_SKEW_MS = 5 * MINUTE_MS;

const enc = new TextEncoder();
const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** hex SHA-256 of a body. */
export async function sha256Hex(body: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', enc.encode(body)));
}

/** The string a node signs. */
export async function canonicalRequest(method: string, path: string, timestamp: string, body: string): Promise<string> {
  return `${method.toUpperCase()}\n${path}\n${timestamp}\n${await sha256Hex(body)}`;
}

/** hex HMAC-SHA256 of the canonical request (what a node sends; the tests and the bench sign with it too). */
export async function signNodeRequest(
  secret: string,
  r: { method: string; path: string; timestamp: string; body: string },
): Promise<string> {
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return hex(
    await crypto.subtle.sign('HMAC', key, enc.encode(await canonicalRequest(r.method, r.path, r.timestamp, r.body))),
  );
}

/** The checks that need neither the body nor the secret: a timestamp inside the window and a well-formed signature. */
export function nodeHeadersPlausible(r: { timestamp: string; signature: string; now: number }): boolean {
  if (!/^\d{10,16}$/.test(r.timestamp) || Math.abs(r.now - Number(r.timestamp)) > NODE_CLOCK_SKEW_MS) return false;
  return /^[0-9a-f]{64}$/.test(r.signature);
}

/** Constant-time check of a node's signature and timestamp. */
export async function verifyNodeSignature(
  secret: string,
  r: { method: string; path: string; timestamp: string; body: string; signature: string; now: number },
): Promise<boolean> {
  if (!nodeHeadersPlausible(r)) return false;
  const expected = await signNodeRequest(secret, r);
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ r.signature.charCodeAt(i);
  return diff === 0;
}
