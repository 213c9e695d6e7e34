// Proxy nodes' signing secrets at rest and their rotation (docs/decisions/162). proxy_nodes.secret holds the secret
// sealed with NODE_SECRET_KEY (AES-256-GCM, random IV, "gcm1:" + base64 iv.ct); a row written before the key existed
// (or by the development seed) still holds the plain secret until the Worker seals it. A rotation keeps the replaced
// secret (sealed) valid for ROTATION_GRACE_MS, so a node keeps working until its configuration holds the new one.
import { fromHex } from '../../lib/bytes';
import { HOUR_MS } from '../../lib/time';
import { decryptField, encryptField } from './identity-crypto';
import { verifyNodeSignature } from './node-auth';

/** How long the secret a rotation replaced stays valid (unless the node signs with the new one sooner). */
export const ROTATION_GRACE_MS = 24 * HOUR_MS;

const SEALED = 'gcm1:';

const keys = new Map<string, Promise<CryptoKey>>();

/** The AES-GCM key of a 64-hex NODE_SECRET_KEY, imported once per isolate. */
function aesKey(hex: string): Promise<CryptoKey> {
  let key = keys.get(hex);
  if (!key) {
    key = crypto.subtle.importKey('raw', fromHex(hex), 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(hex, key);
  }
  return key;
}

/** True when a stored value is sealed (not a plain secret left from before NODE_SECRET_KEY). */
export const isSealedNodeSecret = (stored: string): boolean => stored.startsWith(SEALED);

/** Seal a node secret for proxy_nodes. */
export async function sealNodeSecret(keyHex: string, plain: string): Promise<string> {
  return SEALED + (await encryptField({ enc: await aesKey(keyHex) }, plain));
}

/** The plain secret of a stored value (a plain one as it is); null when it cannot be opened with this key. */
export async function openNodeSecret(keyHex: string, stored: string): Promise<string | null> {
  if (!isSealedNodeSecret(stored)) return stored;
  try {
    return await decryptField({ enc: await aesKey(keyHex) }, stored.slice(SEALED.length));
  } catch {
    return null;
  }
}

/** What authentication reads of a node (one row). */
export interface NodeCredentials {
  status: number;
  secret: string;
  previousSecret: string;
  previousUntil: number;
}

export interface SignedNodeRequest {
  method: string;
  path: string;
  timestamp: string;
  body: string;
  signature: string;
}

export type NodeCheck =
  | { ok: false }
  | {
      ok: true;
      /** The current secret is still stored in plain: seal it (write `sealed` where secret is still `plain`). */
      reseal: { plain: string; sealed: string } | null;
      /** Signed with the new secret while the replaced one was still in its window: end the window now. */
      endGrace: boolean;
    };

/**
 * Is this request signed by the node? An enabled node only; its current secret, or the secret its last rotation
 * replaced while `now` is inside that window. Says which writes the caller should make (sealing a plain row, ending a
 * window early); never says which part failed.
 */
export async function checkNodeRequest(
  keyHex: string,
  node: NodeCredentials,
  r: SignedNodeRequest,
  now: number,
): Promise<NodeCheck> {
  if (node.status !== 1) return { ok: false };
  const current = await openNodeSecret(keyHex, node.secret);
  if (current !== null && (await verifyNodeSignature(current, { ...r, now }))) {
    return {
      ok: true,
      reseal: isSealedNodeSecret(node.secret)
        ? null
        : { plain: node.secret, sealed: await sealNodeSecret(keyHex, current) },
      endGrace: node.previousUntil > 0,
    };
  }
  if (node.previousSecret === '' || now >= node.previousUntil) return { ok: false };
  const previous = await openNodeSecret(keyHex, node.previousSecret);
  if (previous !== null && (await verifyNodeSignature(previous, { ...r, now }))) {
    return { ok: true, reseal: null, endGrace: false };
  }
  return { ok: false };
}
