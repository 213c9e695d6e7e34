// Protection of identity data at rest: AES-256-GCM ciphertexts (random 96-bit IV, base64 "iv.ct") and a keyed hash
// (HMAC-SHA256) for uniqueness checks, both under keys derived from one secret (ID_ENCRYPTION_KEY). WebCrypto only.
import { fromBase64, toBase64, toHex, utf8 } from '../../lib/bytes';

export interface IdentityKeys {
  enc: CryptoKey;
  mac: CryptoKey;
}

async function derive(secret: string, label: string): Promise<Uint8Array<ArrayBuffer>> {
  const k = await crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, utf8(label)));
}

/** Derive the encryption and hashing keys from the secret (separate keys: a hash leak says nothing about the cipher). */
export async function identityKeys(secret: string): Promise<IdentityKeys> {
  if (secret.length < 32) throw new Error('ID_ENCRYPTION_KEY must be at least 32 characters');
  const enc = await crypto.subtle.importKey('raw', await derive(secret, 'identity-aes-gcm-v1'), 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ]);
  const mac = await crypto.subtle.importKey(
    'raw',
    await derive(secret, 'identity-hmac-v1'),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return { enc, mac };
}

/** Encrypt a short text; returns "base64(iv).base64(ciphertext+tag)". */
export async function encryptField(keys: Pick<IdentityKeys, 'enc'>, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, keys.enc, utf8(plain)));
  return `${toBase64(iv)}.${toBase64(ct)}`;
}

/** Decrypt a value made by encryptField (throws when tampered with). */
export async function decryptField(keys: Pick<IdentityKeys, 'enc'>, sealed: string): Promise<string> {
  const [ivB64, ctB64] = sealed.split('.');
  if (!ivB64 || !ctB64) throw new Error('malformed sealed field');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(ivB64) }, keys.enc, fromBase64(ctB64));
  return new TextDecoder().decode(plain);
}

/** The keyed hash of an identifier within a namespace (e.g. 'id', 'credit'), hex. */
export async function keyedHash(keys: IdentityKeys, namespace: string, value: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', keys.mac, utf8(`${namespace}:${value}`))));
}
