// The deployed Worker's server entry: Waku's file-system pages behind the same edge middleware the tests exercise.
import { fsRouter } from 'waku';
import adapter from 'waku/adapters/cloudflare';
import { edgeMiddlewareFactories } from './edge/app';

export default adapter(fsRouter(import.meta.glob('./**/*.{tsx,ts}', { base: './pages' })), {
  middlewareFns: edgeMiddlewareFactories() as never,
});
