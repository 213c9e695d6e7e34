// Development-only endpoints (never mounted in production): the SMS outbox that developers and browser tests read, and
// the local D1 floor the scale benchmark measures beside its routes.
import { Hono } from 'hono';
import { floorRead, floorWrite } from '../../server/db/d1-floor';
import { listOutbox } from '../../server/db/sms';
import { readConfig } from '../../server/env';
import type { EdgeEnv } from '../types';

/** Routes under /dev/*; every one answers 404 in production. */
export function devRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.use('/dev/*', async (c, next) => {
    if (readConfig(c.env).isProduction) return c.notFound();
    await next();
  });
  app.get('/dev/sms-outbox', async (c) => {
    const phone = c.req.query('phone');
    const list = await listOutbox(c.env.DB, phone && /^\d{11}$/.test(phone) ? phone : null, 20);
    return c.json({ messages: list }, 200, { 'Cache-Control': 'no-store' });
  });
  // One D1 read or one single-row D1 write and nothing else (scripts/bench-scale.mjs): what any route that touches the
  // database pays at least, measured beside the routes so their ratios can be read against it.
  app.get('/dev/d1-floor', async (c) => {
    if (c.req.query('op') === 'write') await floorWrite(c.env.DB, Math.floor(Date.now() / 1000));
    else await floorRead(c.env.DB);
    return c.json({ code: 0 }, 200, { 'Cache-Control': 'no-store' });
  });
  return app;
}
