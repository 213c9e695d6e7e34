// Home: the hero with the seed's claims (city count and availability from the region catalogue, as /region shows
// them), the home notice, products with live prices and discount tags (when the commerce actions answer),
// advantages, hot cities, business scenarios, news and friend links (home page only).
import type { ReactNode } from 'react';
import { SectionTitle } from '../../components/content/page-hero';
import { PageMeta } from '../../components/page-meta';
import { type CoverageFigures, coverageFigures } from '../../lib/coverage-figures';
import { discountTag, overviewMaxima, startingPrices } from '../../lib/meal-tags';
import { load } from '../../server/page-data';
import { latestNews } from '../../server/public-data';
import { FriendLinks } from './_components/friend-links';
import { HomeNotice } from './_components/home-notice';
import { Advantages, HotCities, NewsAndHelp, type ProductCard, Products, Scenarios } from './_components/home-sections';

const claims = (f: CoverageFigures) => [
  { value: f.cities, label: '覆盖城市' },
  ...(f.availability ? [{ value: f.availability, label: 'IP可用率' }] : []),
  { value: '1000+', label: '服务企业' },
  { value: '9000万+', label: '海外IP资源' },
];

const PRODUCTS: Omit<ProductCard, 'priceFen' | 'tag'>[] = [
  {
    type: '10',
    label: '短效动态IP',
    href: '/buy?type=10',
    desc: '海量IP池快速轮换，适合高并发采集。',
    points: ['3/5/10/15/30 分钟时长', '按量或包天计费', '单次提取最多200个'],
  },
  {
    type: '40',
    label: '长效静态IP',
    href: '/buy?type=40',
    desc: '同一出口长时间保持，会话不中断。',
    points: ['1/4/8/12/24 小时时长', '电信/联通/移动线路', '支持按省市筛选'],
  },
  {
    type: '30',
    label: '固定IP',
    href: '/buy?type=30',
    desc: '独享固定出口，按月使用可续费。',
    points: ['独享不共用', '可指定城市', '支持批量续费'],
  },
  {
    type: '50',
    label: '优质IP',
    href: '/buy?type=50',
    desc: '精选线路与企业定制IP池。',
    points: ['企业专属IP池', '定制带宽与地区', '专属客户经理'],
  },
];

export default async function HomePage() {
  const [overview, coverage, notice, links, news, hot] = await Promise.all([
    load('ProxyMeal.GetMealOverview', {}, null),
    load('Region.GetCoverage', {}, null),
    load('Notice.getShowHomeNotice', {}, null),
    load('Link.queryLinks', {}, null),
    latestNews(),
    load('HelpRenovation.HotArticleTitleList', { pageSize: 8 }, null),
  ]);
  const figures = coverageFigures(coverage?.totals);
  const maxima = overviewMaxima(overview);
  const prices = startingPrices(overview);
  const products: ProductCard[] = PRODUCTS.map((p) => ({
    ...p,
    priceFen: prices[p.type] ?? null,
    tag: discountTag({ discount: maxima[p.type]?.discount ?? null, send: maxima[p.type]?.send ?? null }),
  }));
  return (
    <>
      <PageMeta
        title="云枢代理 - 企业级高匿代理IP服务平台"
        description={`云枢代理提供短效动态IP、长效静态IP、固定IP与企业定制IP，覆盖全国${figures.cities}个城市${figures.availability ? `，IP可用率${figures.availability}` : ''}，支持API提取与白名单认证。`}
        path="/"
        jsonLd={{
          '@context': 'https://schema.org',
          '@type': 'Organization',
          name: '云枢代理',
          url: '/',
          logo: '/favicon.svg',
        }}
      />
      <section className="relative overflow-hidden bg-[radial-gradient(ellipse_at_top_right,#3372ff_0%,#1935b6_45%,#0f1b3d_100%)] pt-[calc(var(--dropdown-top)+3rem)] pb-20 text-white md:pt-[calc(var(--dropdown-top)+5rem)] md:pb-28">
        <div className="container-page relative">
          <p className="mb-4 inline-flex rounded-full bg-white/10 px-3 py-1 text-xs tracking-wider text-brand-100 ring-1 ring-white/20">
            实名认证 · 合规运营 · 企业级稳定性
          </p>
          <h1 className="max-w-2xl text-3xl leading-tight font-bold md:text-5xl">高匿名代理IP，让数据业务稳定在线</h1>
          <p className="mt-5 max-w-xl text-base leading-7 text-brand-100 md:text-lg">
            短效动态、长效静态、固定独享与企业定制四条产品线，API 秒级提取，白名单一键授权，按量或包天灵活计费。
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <a href="/buy?type=10" className="btn bg-white px-6 py-3 text-base text-brand-700 hover:bg-brand-50">
              立即购买
            </a>
            <a
              href="/login?type=sms"
              className="btn px-6 py-3 text-base text-white ring-1 ring-white/40 hover:bg-white/10"
            >
              免费注册
            </a>
          </div>
          <dl className="mt-14 grid max-w-3xl grid-cols-2 gap-6 md:grid-cols-4" data-testid="home-claims">
            {claims(figures).map((c) => (
              <div key={c.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-sm text-brand-100">{c.label}</dt>
                <dd className="text-2xl font-bold md:text-3xl">{c.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
      {notice?.notice && <HomeNotice id={notice.notice.id} title={notice.notice.title} html={notice.notice.content} />}

      <HomeSection title="四大产品线，覆盖全部业务场景" lead="从分钟级轮换到长期固定出口，按需选择">
        <Products products={products} />
      </HomeSection>
      <HomeSection white title="为什么选择云枢代理" lead="稳定、好用、合规，是我们对每一位客户的承诺">
        <Advantages />
      </HomeSection>
      <HomeSection
        title="热门城市节点"
        lead={`全国${figures.cities}个城市覆盖，三大运营商线路，以下为节点最多的热门城市`}
      >
        <HotCities cities={coverage?.hot ?? []} />
        <p className="mt-6 text-center">
          <a href="/region" className="btn-outline">
            查看全部地区
          </a>
        </p>
      </HomeSection>
      <HomeSection white title="业务场景" lead="八大典型场景的接入方案与产品搭配">
        <Scenarios />
      </HomeSection>
      <HomeSection title="新闻与教程">
        <NewsAndHelp news={news} hot={hot?.list ?? []} />
      </HomeSection>
      <FriendLinks links={links?.list ?? []} />
    </>
  );
}

/** A section of the home page under its title; `white` ones span the width on a white band. */
function HomeSection({
  title,
  lead,
  white = false,
  children,
}: {
  title: string;
  lead?: string;
  white?: boolean;
  children: ReactNode;
}) {
  const body = (
    <>
      <SectionTitle title={title} {...(lead === undefined ? {} : { lead })} />
      {children}
    </>
  );
  return white ? (
    <section className="bg-white py-16">
      <div className="container-page">{body}</div>
    </section>
  ) : (
    <section className="container-page py-16">{body}</section>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
