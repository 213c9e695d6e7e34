// Requests of the proxy-node API (/node/v1 and /node/v2): the HMAC authentication every call passes (secrets sealed at
// rest, a rotation's grace window: docs/decisions/162), the refusal
// that never says which part failed, and body parsing against a schema.
import type { Context } from 'hono';
import type { z } from 'zod';
import { messages } from '../lib/messages';
import { MAX_NODE_BODY_BYTES } from '../lib/node-wire';
import { endNodeGraceStatement, findNode, sealNodeSecretStatement } from '../server/db/pool';
import { nodeHeadersPlausible } from '../server/domain/node-auth';
import { checkNodeRequest } from '../server/domain/node-secrets';
import { readConfig } from '../server/env';
import { readTextLimited } from './request-guards';
import type { EdgeEnv } from './types';

export const deny = (c: Context) => c.json({ code: 401, msg: messages.nodeAuthFailed }, 401);
/** A body over MAX_NODE_BODY_BYTES: the node splits the batch and sends the halves (node/src/reports.ts). */
const tooLarge = (c: Context) => c.json({ code: 413, msg: messages.bodyTooLarge }, 413);

/**
 * The request target as sent: path plus query string (v2 signs both), or the path alone (v1). Taken from the raw
 * URL so the query string is byte-for-byte what the node sent.
 */
function signedPath(url: string, withQuery: boolean): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const target = start < 0 ? '/' : (url.slice(start).split('#')[0] ?? '/');
  return withQuery ? target : (target.split('?')[0] ?? '/');
}

/**
 * Verify the node's signature; returns the node id and the raw body, or the answer to send instead: 401 (one refusal
 * that never says which part failed) or 413 for a body over MAX_NODE_BODY_BYTES, which says nothing about the node
 * and is checked before anything is read from D1. The cheap header checks (node id, timestamp window, signature shape)
 * come first; only then is the body read, counted in bytes. v1 signs the path alone; v2 signs the path with its query
 * string.
 */
export async function authenticate(
  c: Context<EdgeEnv>,
  withQuery = false,
): Promise<{ nodeId: number; body: string } | Response> {
  const refused = await verified(c, withQuery);
  return refused === null ? deny(c) : refused === 'too-large' ? tooLarge(c) : refused;
}

async function verified(
  c: Context<EdgeEnv>,
  withQuery: boolean,
): Promise<{ nodeId: number; body: string } | 'too-large' | null> {
  const id = Number(c.req.header('x-node-id'));
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const timestamp = c.req.header('x-node-timestamp') ?? '';
  const signature = (c.req.header('x-node-signature') ?? '').toLowerCase();
  const now = Date.now();
  if (!nodeHeadersPlausible({ timestamp, signature, now })) return null;
  const body = c.req.method === 'GET' ? '' : await readTextLimited(c.req.raw, MAX_NODE_BODY_BYTES);
  if (body === null) return 'too-large';
  // The one read: the node's status, its (sealed) secret and the secret its last rotation replaced with its window.
  const node = await findNode(c.env.DB, id);
  if (node?.status !== 1) return null;
  const check = await checkNodeRequest(
    readConfig(c.env).nodeSecretKey,
    node,
    { method: c.req.method, path: signedPath(c.req.url, withQuery), timestamp, signature, body },
    now,
  );
  if (!check.ok) return null;
  // Rare writes, once each: seal a secret still stored in plain; end a rotation's window once the new secret is in use.
  const writes = [
    ...(check.reseal ? [sealNodeSecretStatement(c.env.DB, id, check.reseal.plain, check.reseal.sealed)] : []),
    ...(check.endGrace ? [endNodeGraceStatement(c.env.DB, id)] : []),
  ];
  if (writes.length) await c.env.DB.batch(writes);
  return { nodeId: id, body };
}

/** The body parsed as JSON and checked by the schema, or null. */
export function parseJson<T>(schema: z.ZodType<T>, body: string): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
