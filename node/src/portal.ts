// The signed HTTP client for the portal's /node/v2 API (docs/node-api.md, "Transport and authentication").
import { createHash, createHmac } from 'node:crypto';

export class PortalError extends Error {
  status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

export function sign(secret: string, method: string, path: string, timestamp: number, body: string): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', secret).update(`${method}\n${path}\n${timestamp}\n${bodyHash}`).digest('hex');
}

export type PortalClient = {
  call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
};

/** The heartbeat path: every call to it carries a sequence number higher than the last (the portal refuses replays). */
const HEARTBEAT_PATH = '/node/v2/heartbeat';

export function createPortalClient(opts: {
  portalUrl: string;
  nodeId: number;
  secret: string;
  timeoutMs?: number;
}): PortalClient {
  // Milliseconds since the epoch, bumped past the last one sent: increasing across calls and across restarts (as long
  // as the clock does not go back further than the node's uptime), with nothing stored on disk.
  let lastSeq = 0;
  const nextSeq = () => {
    lastSeq = Math.max(lastSeq + 1, Date.now());
    return lastSeq;
  };
  return {
    async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
      const sent = path === HEARTBEAT_PATH && body && typeof body === 'object' ? { ...body, seq: nextSeq() } : body;
      const text = sent === undefined ? '' : JSON.stringify(sent);
      const ts = Date.now();
      const headers: Record<string, string> = {
        'x-node-id': String(opts.nodeId),
        'x-node-timestamp': String(ts),
        'x-node-signature': sign(opts.secret, method, path, ts, text),
      };
      if (method === 'POST') headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await fetch(`${opts.portalUrl}${path}`, {
          method,
          headers,
          ...(method === 'POST' ? { body: text } : {}),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
        });
      } catch (e) {
        throw new PortalError(`portal unreachable: ${(e as Error).message}`, 0);
      }
      const answer = (await res.json().catch(() => null)) as { code?: number; msg?: string; data?: T } | null;
      if (!res.ok || !answer || answer.code !== 0)
        throw new PortalError(`portal answered ${res.status}: ${answer?.msg ?? 'no JSON body'}`, res.status);
      return answer.data as T;
    },
  };
}
