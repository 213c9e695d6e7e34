// /region: hot regions: the 20 hot cities and every province's coverage at a glance.
import { PageHero, SectionTitle } from '../../../components/content/page-hero';
import { PageMeta } from '../../../components/page-meta';
import { coverageFigures } from '../../../lib/coverage-figures';
import { loadCoverage } from '../../../server/regions-page';

export default async function RegionPage() {
  const { hot, provinces, totals } = await loadCoverage();
  const figures = coverageFigures(totals);
  return (
    <>
      <PageMeta
        title={`热门地区 - 全国${figures.cities}个城市代理IP节点`}
        description={`云枢代理节点覆盖全国${totals.provinces}个省级行政区、${figures.cities}个城市，电信、联通、移动三网线路，列出20个热门城市的节点数与可用率。`}
        path="/region"
      />
      <PageHero
        eyebrow="节点覆盖"
        title={`全国${figures.cities}个城市，三大运营商线路`}
        lead="提取时可用 region 参数按省份或城市筛选，用 carrier 参数指定运营商。"
      >
        <dl className="mt-10 grid max-w-2xl grid-cols-3 gap-6" data-testid="region-totals">
          {[
            { v: figures.cities, l: '覆盖城市' },
            { v: `${totals.provinces}`, l: '省级行政区' },
            { v: figures.availability ?? '—', l: 'IP可用率' },
          ].map((x) => (
            <div key={x.l} className="flex flex-col-reverse">
              <dt className="mt-1 text-sm text-brand-100">{x.l}</dt>
              <dd className="text-2xl font-bold md:text-3xl">{x.v}</dd>
            </div>
          ))}
        </dl>
      </PageHero>
      <section className="container-page py-14">
        <SectionTitle title="20个热门城市" lead="节点数量多、可用率高，适合大规模业务" />
        <ol className="mt-8 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-5" data-testid="region-hot">
          {hot.map((c, i) => (
            <li key={c.city} className="card px-4 py-3">
              <span className="text-xs font-semibold text-brand-700">TOP {i + 1}</span>
              <span className="block font-semibold text-ink">{c.city}</span>
              <span className="block text-xs text-slate-600">
                {c.nodeCount.toLocaleString('zh-CN')} 节点 · {c.availability.toFixed(2)}%
              </span>
            </li>
          ))}
        </ol>
      </section>
      <section className="bg-white py-14">
        <div className="container-page">
          <SectionTitle title="各省覆盖" lead="点击查看每个城市的运营商、节点数与可用率" />
          <ul className="mt-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {provinces.map((p) => (
              <li key={p.province} className="rounded-lg border border-slate-200 p-4">
                <a
                  href={`/region/data#${encodeURIComponent(p.province)}`}
                  className="font-semibold text-ink hover:text-brand-700"
                >
                  {p.province}
                </a>
                <p className="mt-1 text-xs text-slate-600">{p.cities.length} 个城市</p>
                <p className="mt-2 line-clamp-2 text-xs text-slate-600">{p.cities.map((c) => c.city).join('、')}</p>
              </li>
            ))}
          </ul>
          <p className="mt-8 text-center">
            <a href="/region/data" className="btn-primary">
              查看完整地区数据
            </a>
          </p>
        </div>
      </section>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
