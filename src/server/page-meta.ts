// Page-level facts for SEO tags: the canonical origin (configured portal origin, else the request's own).
import { unstable_getContext as getContext } from 'waku/server';
import { type Bindings, readConfig } from './env';

/** The origin canonical and Open Graph addresses are built on. */
export async function siteOrigin(): Promise<string> {
  try {
    const { env } = await import('cloudflare:workers');
    const configured = readConfig(env as unknown as Bindings).portalOrigin;
    if (configured && /^https?:\/\//.test(configured)) return configured.replace(/\/$/, '');
  } catch {
    // outside the Worker (build-time prerender)
  }
  try {
    return new URL(getContext().req.url).origin;
  } catch {
    return 'https://www.example-proxy.cn';
  }
}
