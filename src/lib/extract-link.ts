// Builds extraction links (GET /extract) for the get-proxy tool and formats traffic figures; isomorphic.

export interface ExtractLinkOptions {
  key: string;
  type: 10 | 40;
  num: number;
  protocol: 'http' | 'https' | 'socks5';
  format: 'txt' | 'json';
  sep: 1 | 2 | 3 | 4 | 5;
  sepText?: string;
  regions: string[];
  carrier: string;
  dedup: 0 | 1 | 2;
  minTtl: number;
  fields: string[];
  packageId: number | null;
}

/** The link with only non-default parameters besides key and num, in the documented order. */
export function buildExtractLink(origin: string, o: ExtractLinkOptions): string {
  const q = new URLSearchParams();
  q.set('key', o.key);
  q.set('num', String(o.num));
  if (o.type !== 10) q.set('type', String(o.type));
  if (o.protocol !== 'http') q.set('protocol', o.protocol);
  if (o.format !== 'txt') q.set('format', o.format);
  if (o.format === 'txt' && o.sep !== 1) q.set('sep', String(o.sep));
  if (o.format === 'txt' && o.sep === 5) q.set('sep_text', o.sepText ?? '');
  if (o.regions.length) q.set('region', o.regions.join(','));
  if (o.carrier) q.set('carrier', o.carrier);
  if (o.dedup) q.set('dedup', String(o.dedup));
  if (o.minTtl > 0) q.set('min_ttl', String(o.minTtl));
  if (o.fields.length) q.set('fields', o.fields.join(','));
  if (o.packageId) q.set('package', String(o.packageId));
  return `${origin}/extract?${q.toString()}`;
}

/** 1536 -> "1.50 KB". */
export function formatTraffic(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(2)} ${units[i]}`;
}
