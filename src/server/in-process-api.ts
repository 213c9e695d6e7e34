// The /api handler that server components call in process (src/server/api-server.ts). The Worker's entry
// (src/server-entry.tsx) provides it, so server code never imports the edge that serves it.
import 'server-only';
import type { Bindings } from './env';

export type InProcessFetch = (req: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>;

let handler: InProcessFetch | null = null;

/** Called once by the entry with the endpoint app's fetch. */
export function provideInProcessApi(fetch: InProcessFetch): void {
  handler = fetch;
}

/** The registered handler; throws when the entry did not provide one. */
export function inProcessApi(): InProcessFetch {
  if (!handler) throw new Error('no in-process /api handler: src/server-entry.tsx provides it');
  return handler;
}
