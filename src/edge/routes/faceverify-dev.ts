// Development only: the local face-verification simulator page. GET shows who is being verified with 通过 / 不通过;
// POST records the verdict server-side (read by the simulator provider's describe) and returns to the portal.
// Answers 404 in production, where the provider factory never chooses the simulator either.
import { Hono } from 'hono';
import { findSimulatorSession, setSimulatorVerdict } from '../../server/db/realname';
import { readConfig } from '../../server/env';
import type { EdgeEnv } from '../types';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(name: string, certifyId: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>人脸核验模拟器</title><style>body{font-family:system-ui,sans-serif;background:#f1f5f9;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
.card{background:#fff;border-radius:16px;padding:32px;max-width:360px;width:90%;box-shadow:0 10px 30px #0f172a1a;text-align:center}
.face{width:120px;height:120px;border-radius:50%;border:4px dashed #1d54f5;margin:16px auto}
button{border:0;border-radius:8px;padding:12px 24px;font-size:16px;margin:8px;cursor:pointer}.ok{background:#1d54f5;color:#fff}.no{background:#e2e8f0}
.tip{color:#b45309;background:#fffbeb;border-radius:8px;padding:8px;font-size:13px}</style></head>
<body><main class="card"><h1 style="font-size:20px">人脸核验（开发模拟）</h1><p class="tip">仅开发环境可见，生产环境使用阿里云实人认证</p>
<div class="face" aria-hidden="true"></div><p>核验对象：<strong>${esc(name)}</strong></p>
<form method="post" action="/dev/faceverify/${esc(certifyId)}"><button class="ok" name="verdict" value="T" data-testid="sim-pass">通过</button>
<button class="no" name="verdict" value="F" data-testid="sim-fail">不通过</button></form></main></body></html>`;
}

/** Routes under /dev/faceverify/*; 404 in production. */
export function faceVerifyDevRoutes(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.use('/dev/faceverify/*', async (c, next) => {
    if (readConfig(c.env).isProduction) return c.notFound();
    await next();
  });
  app.get('/dev/faceverify/:certifyId', async (c) => {
    const s = await findSimulatorSession(c.env.DB, c.req.param('certifyId'));
    if (!s) return c.notFound();
    return c.html(page(s.nameMasked, s.certifyId), 200, { 'Cache-Control': 'no-store' });
  });
  app.post('/dev/faceverify/:certifyId', async (c) => {
    const s = await findSimulatorSession(c.env.DB, c.req.param('certifyId'));
    if (!s) return c.notFound();
    const form = await c.req.parseBody();
    const verdict = form.verdict === 'T' ? 'T' : 'F';
    await setSimulatorVerdict(c.env.DB, s.certifyId, verdict);
    const back = new URL(s.returnUrl);
    back.searchParams.set('certifyId', s.certifyId);
    return c.redirect(`${back.pathname}${back.search}`, 303);
  });
  return app;
}
