// Hono typing shared by the edge: bindings and per-request variables.
import type { Bindings } from '../server/env';

declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
  }
}

export interface EdgeEnv {
  Bindings: Bindings;
}
