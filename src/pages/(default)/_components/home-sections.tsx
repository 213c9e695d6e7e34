// Home page sections (server components): products with live prices and tags, advantages, hot cities, scenarios, news.
import type { ActionOutput } from '../../../lib/api-core';
import { formatDate, formatFen } from '../../../lib/format';
import { SCENARIOS } from '../../../lib/site';
import type { TitleDto } from '../../../server/public-data';

export interface ProductCard {
  type: string;
  label: string;
  href: string;
  desc: string;
  points: string[];
  priceFen: number | null;
  tag: string | null;
}

export function Products({ products }: { products: ProductCard[] }) {
  return (
    <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4" data-testid="home-products">
      {products.map((p) => (
        <li key={p.type} className="card relative flex flex-col p-6 transition-shadow hover:shadow-md">
          {p.tag && (
            <span className="absolute top-4 right-4 rounded-full bg-orange-100 px-2 py-0.5 text-xs font-semibold text-orange-800">
              {p.tag}
            </span>
          )}
          <h3 className="text-lg font-semibold text-ink">{p.label}</h3>
          <p className="mt-2 text-sm text-slate-600">{p.desc}</p>
          <ul className="mt-4 flex-1 space-y-1.5 text-sm text-slate-700">
            {p.points.map((pt) => (
              <li key={pt} className="flex gap-2">
                <span aria-hidden="true" className="text-brand-600">
                  ✓
                </span>
                {pt}
              </li>
            ))}
          </ul>
          {p.priceFen !== null && (
            <p className="mt-4 text-sm text-slate-600">
              <span className="text-2xl font-bold text-brand-700">{formatFen(p.priceFen)}</span> 起
            </p>
          )}
          <a href={p.href} className="btn-outline mt-5" aria-label={`立即购买${p.label}`}>
            立即购买
          </a>
        </li>
      ))}
    </ul>
  );
}

const ADVANTAGES = [
  {
    title: '高匿名，真实住宅出口',
    text: '不透传客户端IP与代理特征头，目标站点只看到出口IP，适合对访问来源敏感的业务。',
  },
  {
    title: '秒级提取，白名单授权',
    text: 'API 一次最多提取200个IP，JSON/TXT 多种格式；白名单认证免账号密码，接入一行配置。',
  },
  {
    title: '按剩余寿命筛选',
    // The parameter's name as a customer types it in the extraction link: code, not prose.
    text: (
      <>
        独有 <code>min_ttl</code> 参数，只返回剩余有效期足够的IP，长任务不再中途断线。
      </>
    ),
  },
  { title: '合规运营，实名可追溯', text: '全部用户实名认证，访问日志依法留存不少于6个月，拒绝任何违法用途。' },
];

export function Advantages() {
  return (
    <ul className="mt-10 grid gap-5 md:grid-cols-2 lg:grid-cols-4">
      {ADVANTAGES.map((a, i) => (
        <li key={a.title} className="rounded-xl border border-slate-200 bg-white p-6">
          <span className="inline-flex h-9 w-9 items-center justify-center rounded-lg bg-brand-50 font-bold text-brand-700">
            {i + 1}
          </span>
          <h3 className="mt-4 font-semibold text-ink">{a.title}</h3>
          <p className="mt-2 text-sm leading-6 text-slate-600">{a.text}</p>
        </li>
      ))}
    </ul>
  );
}

/** A hot city as Region.GetCoverage answers it. */
export type HotCity = ActionOutput<'Region.GetCoverage'>['hot'][number];

export function HotCities({ cities }: { cities: HotCity[] }) {
  return (
    <ul className="mt-8 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-5" data-testid="hot-cities">
      {cities.map((c) => (
        <li key={c.city} className="rounded-lg border border-slate-200 bg-white px-4 py-3">
          <span className="block font-medium text-ink">{c.city.replace(/市$/, '')}</span>
          <span className="mt-0.5 block text-xs text-slate-600">
            可用率 {c.availability.toFixed(2)}% · {c.carriers.join('/')}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function Scenarios() {
  return (
    <ul className="mt-10 grid grid-cols-2 gap-4 md:grid-cols-4">
      {SCENARIOS.map((s) => (
        <li key={s.type}>
          <a
            href={`/businessScen/${s.type}`}
            className="block h-full rounded-xl border border-slate-100 bg-slate-50 p-5 hover:border-brand-200 hover:bg-brand-50"
          >
            <span className="block font-semibold text-ink">{s.label}</span>
            <span className="mt-2 block text-sm text-slate-600">{s.desc}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

export function NewsAndHelp({ news, hot }: { news: TitleDto[]; hot: TitleDto[] }) {
  const list = (items: TitleDto[], dated: boolean) => (
    <ul className="mt-4 divide-y divide-slate-100">
      {items.map((a) => (
        <li key={a.id} className="flex items-center justify-between gap-4 py-3 text-sm">
          <a href={a.Url} className="line-clamp-1 text-slate-700 hover:text-brand-700">
            {a.Title}
          </a>
          {dated && <time className="shrink-0 text-xs text-slate-500">{formatDate(a.publishedAt)}</time>}
        </li>
      ))}
    </ul>
  );
  return (
    <div className="mt-10 grid gap-6 md:grid-cols-2">
      <section className="card p-6" data-testid="home-news">
        <div className="flex items-baseline justify-between">
          <h3 className="text-lg font-semibold text-ink">新闻动态</h3>
          <a href="/help#news" className="text-sm text-brand-700 hover:underline">
            更多
          </a>
        </div>
        {list(news, true)}
      </section>
      <section className="card p-6">
        <div className="flex items-baseline justify-between">
          <h3 className="text-lg font-semibold text-ink">热门教程</h3>
          <a href="/help" className="text-sm text-brand-700 hover:underline">
            帮助中心
          </a>
        </div>
        {list(hot.slice(0, 6), false)}
      </section>
    </div>
  );
}
