// Per-page <title>, description, canonical and Open Graph tags (React hoists them into <head>), plus optional JSON-LD.
import { pageTitle, SITE } from '../lib/site';
import { siteOrigin } from '../server/page-meta';

export interface PageMetaProps {
  title: string;
  description: string;
  /** Canonical path, e.g. /help/faq.html (query kept only when it selects content, e.g. /buy?type=10). */
  path: string;
  type?: 'website' | 'article';
  noindex?: boolean;
  jsonLd?: Record<string, unknown>;
}

/** JSON for a <script> element: "<" escaped so content can never close the element. */
const safeJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

export async function PageMeta({ title, description, path, type = 'website', noindex, jsonLd }: PageMetaProps) {
  const origin = await siteOrigin();
  const url = `${origin}${path}`;
  const fullTitle = pageTitle(title);
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      {noindex && <meta name="robots" content="noindex" />}
      <meta property="og:type" content={type} />
      <meta property="og:site_name" content={SITE.name} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={`${origin}/images/og-cover.jpg`} />
      <meta property="og:locale" content="zh_CN" />
      {jsonLd && (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD built from server data, "<" escaped
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: safeJson(jsonLd) }} />
      )}
    </>
  );
}
