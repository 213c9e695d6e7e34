// Development-only endpoints (never mounted in production): the SMS outbox that developers and browser tests read.
import { Hono } from 'hono';
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
  return app;
}
