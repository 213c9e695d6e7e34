// GET /builds/latest.json: the running build's id, polled hourly by clients to reload onto a new build.
import { Hono } from 'hono';
import { type Bindings, readConfig } from '../../server/env';
import type { EdgeEnv } from '../types';

declare const __BUILD_ID__: string | undefined;

/** The build id compiled into this Worker (falls back to the BUILD_ID var, then 'dev'). */
export function currentBuildId(env: Bindings): string {
  const compiled = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : undefined;
  return compiled ?? readConfig(env).buildId ?? 'dev';
}

/** Routes under /builds/. */
export function buildRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.get('/builds/latest.json', (c) =>
    c.json({ buildId: currentBuildId(c.env) }, 200, { 'Cache-Control': 'no-cache, max-age=0' }),
  );
  return app;
}
