// The edge: the middleware every request passes (request id, errors, security headers, redirects, guard) and the
// non-page endpoints. Waku's server entry mounts the same list in front of the pages; src/edge/worker.ts runs it
// alone for the test suites.
import 'server-only';
import { type Handler, Hono, type MiddlewareHandler } from 'hono';
import { adminGuard } from './middleware/admin-guard';
import { errorBoundary, handleError } from './middleware/error-boundary';
import { pageStatus } from './middleware/page-status';
import { personalCenterGuard } from './middleware/personal-center-guard';
import { promotionCapture } from './middleware/promotion-capture';
import { redirects } from './middleware/redirects';
import { requestId } from './middleware/request-id';
import { securityHeaders } from './middleware/security-headers';
import { executionContextOf } from './request-guards';
import { adminUploadRoutes } from './routes/admin-uploads'; // marketing images uploaded from the console
import { apiRoutes } from './routes/api';
import { buildRoutes } from './routes/builds';
import { devRoutes } from './routes/dev';
import { extractRoutes } from './routes/extract';
import { invoiceFileRoutes } from './routes/invoice-files'; // invoice PDFs: finance uploads, customers download
import { faceVerifyDevRoutes } from './routes/faceverify-dev'; // face-verification simulator (development only)
import { nodeRoutes } from './routes/node';
import { payRoutes } from './routes/pay';
import { paySimulatorRoutes } from './routes/pay-simulator';
import { qrRoutes } from './routes/qr';
import { seoRoutes } from './routes/seo';
import { uploadRoutes } from './routes/uploads'; // company licence upload
import type { EdgeEnv } from './types';

/** Path prefixes answered by the endpoint routes instead of pages. */
const ENDPOINT_PREFIXES = [
  '/api',
  '/builds/',
  '/dev/',
  '/extract',
  '/node/',
  '/sitemap.xml',
  '/robots.txt',
  '/pay/notify/',
  '/pay/wechat/',
  '/qr/',
];

/** The Hono app holding every non-page endpoint. */
export function createEndpointApp(): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  app.route('/', apiRoutes());
  app.route('/', buildRoutes());
  app.route('/', devRoutes());
  app.route('/', paySimulatorRoutes());
  app.route('/', payRoutes());
  app.route('/', faceVerifyDevRoutes());
  app.route('/', uploadRoutes());
  app.route('/', adminUploadRoutes());
  app.route('/', invoiceFileRoutes());
  app.route('/', seoRoutes());
  app.route('/', extractRoutes());
  app.route('/', nodeRoutes());
  app.route('/', qrRoutes());
  app.onError(handleError);
  return app;
}

const isEndpointPath = (path: string) =>
  ENDPOINT_PREFIXES.some(
    (p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`) || path === p.replace(/\/$/, ''),
  );

/** Middleware that answers endpoint paths from the endpoint app and lets page paths through. */
export function endpoints(app: Hono<EdgeEnv> = createEndpointApp()): MiddlewareHandler<EdgeEnv> {
  return async function endpointsMiddleware(c, next) {
    const path = new URL(c.req.url).pathname;
    if (!isEndpointPath(path)) return next();
    c.res = await app.fetch(c.req.raw, c.env, executionContextOf(c) as Parameters<typeof app.fetch>[2]);
  };
}

/** The ordered middleware factories, shared by both Worker entries. */
export function edgeMiddlewareFactories(): (() => MiddlewareHandler<EdgeEnv>)[] {
  return [
    () => requestId(),
    () => errorBoundary(),
    () => securityHeaders(),
    () => redirects(),
    () => personalCenterGuard(),
    () => adminGuard(),
    () => promotionCapture(),
    () => pageStatus(),
    () => endpoints(),
  ];
}

/** The edge alone, with a stand-in for pages (used by the workerd test suites). */
export function createEdgeApp(pages?: Handler<EdgeEnv>): Hono<EdgeEnv> {
  const app = new Hono<EdgeEnv>();
  for (const make of edgeMiddlewareFactories()) app.use(make());
  app.all('*', pages ?? ((c) => c.text('page', 200, { 'X-Page-Stand-In': '1' })));
  app.onError(handleError);
  return app;
}
