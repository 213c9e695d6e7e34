-- Public-site content and tracking: the help centre and news, friend links, the home notice, marketing images, site
-- settings, region coverage, enterprise consultations and ad-conversion tracking points.

-- Help categories: top_category 0 使用教程, 2 产品与功能. url is the ascii slug of /help/{url}.html.
CREATE TABLE help_categories (
  id INTEGER PRIMARY KEY,
  top_category INTEGER NOT NULL CHECK (top_category IN (0, 2)),
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL UNIQUE,
  sort INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Articles: kind 'help' belongs to a category; kind 'news' is a site news item (category_id NULL). body_html is limited
-- to the help allow-list and sanitised again before rendering. url is unique across articles (and never equals a
-- category url, checked by the seed and the domain).
CREATE TABLE articles (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('help', 'news')),
  category_id INTEGER REFERENCES help_categories(id),
  url TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  summary TEXT NOT NULL DEFAULT '',
  keywords TEXT NOT NULL DEFAULT '',          -- comma separated
  body_html TEXT NOT NULL,
  is_hot INTEGER NOT NULL DEFAULT 0,
  show_on_buy INTEGER NOT NULL DEFAULT 0,
  views INTEGER NOT NULL DEFAULT 0,
  state INTEGER NOT NULL DEFAULT 1 CHECK (state IN (0, 1)),  -- 1 published, 0 hidden
  published_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX articles_kind_published ON articles(kind, state, published_at DESC);
CREATE INDEX articles_category ON articles(category_id, state, published_at DESC);
CREATE INDEX articles_hot ON articles(kind, is_hot, state, views DESC);

-- Friend links shown in the home page footer.
CREATE TABLE friend_links (
  id INTEGER PRIMARY KEY,
  link_name TEXT NOT NULL,
  link_url TEXT NOT NULL,
  link_target TEXT NOT NULL DEFAULT '_blank' CHECK (link_target IN ('_blank', '_self')),
  no_follow INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1
);

-- Notices shown on the home page (content is operator HTML, sanitised before it leaves the server).
CREATE TABLE home_notices (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  content_html TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);
CREATE INDEX home_notices_window ON home_notices(enabled, starts_at DESC);

-- Marketing images: slot 'centerImg' (the header's top banner) and 'bottomBtn2'. in_or_out 1 = internal route.
CREATE TABLE marketing_images (
  id INTEGER PRIMARY KEY,
  slot TEXT NOT NULL CHECK (slot IN ('centerImg', 'bottomBtn2')),
  img TEXT NOT NULL,
  is_click INTEGER NOT NULL DEFAULT 0,
  click_url TEXT NOT NULL DEFAULT '',
  in_or_out INTEGER NOT NULL DEFAULT 1 CHECK (in_or_out IN (1, 2)),
  alt TEXT NOT NULL DEFAULT '',
  audience TEXT NOT NULL DEFAULT 'all' CHECK (audience IN ('all', 'guest', 'user')),
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX marketing_images_slot ON marketing_images(slot, enabled, starts_at DESC);

-- Operator switches (e.g. online_chat = '1').
CREATE TABLE site_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Region coverage shown on /region and /region/data (availability in basis points, 9983 = 99.83%).
CREATE TABLE region_coverage (
  id INTEGER PRIMARY KEY,
  province TEXT NOT NULL,
  city TEXT NOT NULL,
  carriers TEXT NOT NULL,                      -- e.g. 电信,联通,移动
  node_count INTEGER NOT NULL,
  availability_bp INTEGER NOT NULL CHECK (availability_bp BETWEEN 0 AND 10000),
  hot_rank INTEGER NOT NULL DEFAULT 0,         -- 1..20 for the hot cities, 0 otherwise
  dynamic_ok INTEGER NOT NULL DEFAULT 1,
  static_ok INTEGER NOT NULL DEFAULT 1,
  UNIQUE (province, city)
);
CREATE INDEX region_coverage_hot ON region_coverage(hot_rank);

-- Enterprise consultations from /firmsServer. state 0 new, 1 contacted, 2 closed.
CREATE TABLE consult_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  company TEXT NOT NULL,
  contact_name TEXT NOT NULL,
  phone TEXT NOT NULL,
  email TEXT NOT NULL DEFAULT '',
  scenario TEXT NOT NULL,
  monthly_volume TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  user_id INTEGER REFERENCES users(id),
  client_ip TEXT NOT NULL,
  state INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
  created_at INTEGER NOT NULL
);
CREATE INDEX consult_requests_ip ON consult_requests(client_ip, created_at);
CREATE INDEX consult_requests_phone ON consult_requests(phone, created_at);
CREATE INDEX consult_requests_state ON consult_requests(state, created_at DESC);

-- Ad-conversion tracking points (Buried.buriedPoint = Baidu bd_vid, Buried.buriedPoint360 = 360 qhclickid).
CREATE TABLE tracking_points (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL CHECK (channel IN ('baidu', '360')),
  click_id TEXT NOT NULL,
  event TEXT NOT NULL,
  page TEXT NOT NULL DEFAULT '',
  did TEXT NOT NULL DEFAULT '',
  traffic_from TEXT NOT NULL DEFAULT '',
  finger_print TEXT NOT NULL DEFAULT '',
  user_id INTEGER REFERENCES users(id),
  client_ip TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (channel, click_id, event)
);
CREATE INDEX tracking_points_ip ON tracking_points(client_ip, created_at);
