// Queries for the shell's operator content: friend links, the home notice, marketing images, site settings, regions.

export interface FriendLinkRecord {
  linkName: string;
  linkUrl: string;
  linkTarget: '_blank' | '_self';
  noFollow: boolean;
}

/** Enabled friend links in display order. */
export async function listFriendLinks(db: D1Database): Promise<FriendLinkRecord[]> {
  const { results } = await db
    .prepare(
      'SELECT link_name, link_url, link_target, no_follow FROM friend_links WHERE enabled = 1 ORDER BY sort, id LIMIT 100',
    )
    .all<{ link_name: string; link_url: string; link_target: '_blank' | '_self'; no_follow: number }>();
  return results.map((r) => ({
    linkName: r.link_name,
    linkUrl: r.link_url,
    linkTarget: r.link_target,
    noFollow: r.no_follow === 1,
  }));
}

export interface HomeNoticeRecord {
  id: number;
  title: string;
  contentHtml: string;
  startsAt: number;
}

/** The newest enabled notice whose window contains now. */
export async function findCurrentHomeNotice(db: D1Database, now: number): Promise<HomeNoticeRecord | null> {
  const row = await db
    .prepare(
      `SELECT id, title, content_html, starts_at FROM home_notices
       WHERE enabled = 1 AND user_id IS NULL AND starts_at <= ?1 AND ends_at > ?1 ORDER BY starts_at DESC LIMIT 1`,
    )
    .bind(now)
    .first<{ id: number; title: string; content_html: string; starts_at: number }>();
  return row ? { id: row.id, title: row.title, contentHtml: row.content_html, startsAt: row.starts_at } : null;
}

export interface MarketingImageRecord {
  slot: 'centerImg' | 'bottomBtn2';
  img: string;
  isClick: boolean;
  clickUrl: string;
  inOrOut: 1 | 2;
  alt: string;
}

/** The newest live image per slot for an audience ('guest' or 'user'; 'all' rows match both). */
export async function listLiveMarketingImages(
  db: D1Database,
  now: number,
  audience: 'guest' | 'user',
): Promise<MarketingImageRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT slot, img, is_click, click_url, in_or_out, alt FROM marketing_images
       WHERE enabled = 1 AND starts_at <= ?1 AND ends_at > ?1 AND audience IN ('all', ?2)
       ORDER BY starts_at DESC LIMIT 20`,
    )
    .bind(now, audience)
    .all<{
      slot: 'centerImg' | 'bottomBtn2';
      img: string;
      is_click: number;
      click_url: string;
      in_or_out: 1 | 2;
      alt: string;
    }>();
  const seen = new Set<string>();
  const out: MarketingImageRecord[] = [];
  for (const r of results) {
    if (seen.has(r.slot)) continue;
    seen.add(r.slot);
    out.push({
      slot: r.slot,
      img: r.img,
      isClick: r.is_click === 1,
      clickUrl: r.click_url,
      inOrOut: r.in_or_out,
      alt: r.alt,
    });
  }
  return out;
}

/** A site setting's value, or null. */
export async function readSetting(db: D1Database, key: string): Promise<string | null> {
  const row = await db.prepare('SELECT value FROM site_settings WHERE key = ?').bind(key).first<{ value: string }>();
  return row?.value ?? null;
}

export interface RegionRecord {
  province: string;
  city: string;
  carriers: string[];
  nodeCount: number;
  availabilityBp: number;
  hotRank: number;
  dynamicOk: boolean;
  staticOk: boolean;
}

/** Every covered city, hot ones first then by province. */
export async function listRegions(db: D1Database): Promise<RegionRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT province, city, carriers, node_count, availability_bp, hot_rank, dynamic_ok, static_ok FROM region_coverage
       ORDER BY CASE WHEN hot_rank > 0 THEN hot_rank ELSE 1000 END, id LIMIT 2000`,
    )
    .all<{
      province: string;
      city: string;
      carriers: string;
      node_count: number;
      availability_bp: number;
      hot_rank: number;
      dynamic_ok: number;
      static_ok: number;
    }>();
  return results.map((r) => ({
    province: r.province,
    city: r.city,
    carriers: r.carriers.split(',').filter(Boolean),
    nodeCount: r.node_count,
    availabilityBp: r.availability_bp,
    hotRank: r.hot_rank,
    dynamicOk: r.dynamic_ok === 1,
    staticOk: r.static_ok === 1,
  }));
}
