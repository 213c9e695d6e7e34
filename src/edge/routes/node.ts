// The proxy-node API. /node/v2/* (contract v2, docs/node-api.md) is served by ./node-v2.ts. /node/v1/* is retired
// (docs/decisions/200): its white list gave any node every customer's entries and its usage took any user id, so every
// v1 path answers 410 with the way to v2, before any database read.
import { Hono } from 'hono';
import { messages } from '../../lib/messages';
import type { EdgeEnv } from '../types';
import { nodeV2Routes } from './node-v2';

/** Build the Hono sub-app that serves /node/*. */
export function nodeRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.all('/node/v1/*', (c) => c.json({ code: 410, msg: messages.nodeV1Retired }, 410));
  app.route('/', nodeV2Routes());
  app.all('/node/*', (c) => c.json({ code: 404, msg: messages.notFound }, 404));
  return app;
}
