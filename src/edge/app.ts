import { Hono } from 'hono';
export function createEdgeApp() {
  const app = new Hono();
  app.get('/healthz', (c) => c.text('ok'));
  return app;
}
