// The console's node writes (docs/decisions/126, 162): create a node (its signing secret is returned once and never
// again, and stored sealed), disable / enable it, rotate its secret (the old one keeps working for a grace window). Each write goes with its audit row in one batch; the secret itself is never
// written to the audit log. /node/v1 and /node/v2 read proxy_nodes on every call (src/edge/routes/node.ts
// authenticate), so a disabled node or an old secret is refused from the next request on.
import { AppError } from '../../lib/errors';
import type { AuditActor } from '../db/console-audit';
import {
  findNodeAdmin,
  findNodeStoredSecret,
  insertNodeStatement,
  markNodeExitsUnhealthyStatement,
  nodeNameTaken,
  rotateNodeSecretStatement,
  setNodeStatusStatement,
} from '../db/console-nodes';
import { openNodeSecret, ROTATION_GRACE_MS, sealNodeSecret } from './node-secrets';
import { auditedChange, auditedWrite } from './console-audit';

/** Bytes of randomness in a node secret (shown as 64 hex characters). */
export const NODE_SECRET_BYTES = 32;

/** A fresh signing secret for a node: 256 random bits as lowercase hex. */
export function newNodeSecret(): string {
  const b = crypto.getRandomValues(new Uint8Array(NODE_SECRET_BYTES));
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** Create a node; its secret is stored sealed with `keyHex` (NODE_SECRET_KEY) and answered this once. */
export async function createNode(
  db: D1Database,
  keyHex: string,
  actor: AuditActor,
  name: string,
): Promise<{ id: number; name: string; secret: string }> {
  if (await nodeNameTaken(db, name)) throw new AppError('nodeNameTaken');
  const secret = newNodeSecret();
  const sealed = await sealNodeSecret(keyHex, secret);
  try {
    const r = await auditedWrite(db, actor, { action: 'Admin.NodeCreate', target: 'node:new', after: { name } }, [
      insertNodeStatement(db, name, sealed, actor.now),
    ]);
    const id = Number((r.results[0]?.results?.[0] as { id?: number } | undefined)?.id ?? 0);
    return { id, name, secret };
  } catch (e) {
    if (e instanceof Error && /UNIQUE constraint failed/i.test(e.message)) throw new AppError('nodeNameTaken');
    throw e;
  }
}

/** Disable (its calls are refused, its exits leave the pool at once) or enable a node. */
export async function setNodeEnabled(
  db: D1Database,
  actor: AuditActor,
  input: { id: number; enabled: boolean; reason: string },
): Promise<{ status: 0 | 1 }> {
  const node = await findNodeAdmin(db, input.id);
  if (!node) throw new AppError('nodeNotFound');
  const to = input.enabled ? 1 : 0;
  const changes = input.enabled
    ? [setNodeStatusStatement(db, input.id, 1)]
    : [markNodeExitsUnhealthyStatement(db, input.id, actor.now), setNodeStatusStatement(db, input.id, 0)];
  await auditedChange(
    db,
    actor,
    {
      action: 'Admin.NodeSetEnabled',
      target: `node:${input.id}`,
      before: { status: node.status, name: node.name },
      after: { status: to },
      reason: input.reason,
    },
    changes,
    'contentStateUnchanged',
  );
  return { status: to };
}

/**
 * Replace a node's secret (stored sealed). The replaced secret stays valid for ROTATION_GRACE_MS — until the node
 * signs with the new one, if sooner — so the node keeps working while its configuration is updated; `immediate`
 * (a leaked secret) refuses it from the next call. Rotating again inside a window replaces the previous secret with
 * the one being retired. Returns the new secret (shown once) and until when the old one is accepted (0: not at all).
 */
export async function rotateNodeSecret(
  db: D1Database,
  keyHex: string,
  actor: AuditActor,
  input: { id: number; reason: string; immediate: boolean },
): Promise<{ id: number; secret: string; previousValidUntil: number }> {
  const [node, storedOld] = await Promise.all([findNodeAdmin(db, input.id), findNodeStoredSecret(db, input.id)]);
  if (!node || storedOld === null) throw new AppError('nodeNotFound');
  const secret = newNodeSecret();
  const oldPlain = input.immediate ? null : await openNodeSecret(keyHex, storedOld);
  const previousValidUntil = oldPlain === null ? 0 : actor.now + ROTATION_GRACE_MS;
  const r = await auditedWrite(
    db,
    actor,
    {
      action: 'Admin.NodeRotateSecret',
      target: `node:${input.id}`,
      after: { name: node.name, previousValidUntil },
      reason: input.reason,
    },
    [
      rotateNodeSecretStatement(db, {
        id: input.id,
        storedOld,
        sealed: await sealNodeSecret(keyHex, secret),
        previous: oldPlain === null ? '' : await sealNodeSecret(keyHex, oldPlain),
        previousUntil: previousValidUntil,
      }),
    ],
    { requireChange: true },
  );
  // Another rotation (or the node's first call sealing a plain secret) changed the row meanwhile: nothing was written.
  if (r.changed === 0) throw new AppError('catalogueStateChanged');
  return { id: input.id, secret, previousValidUntil };
}
