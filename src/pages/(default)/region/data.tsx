// /region/data: every covered city by province with carriers, node counts, availability and product support.
import { Breadcrumb } from '../../../components/breadcrumb';
import { PageMeta } from '../../../components/page-meta';
import { loadCoverage } from '../../../server/regions-page';

export default async function RegionDataPage() {
  const { provinces, totals } = await loadCoverage();
  return (
    <div className="container-page py-6 md:py-8">
      <PageMeta
        title="地区数据 - 全部城市节点与可用率"
        description={`全国${totals.cities}个城市的代理IP节点数据：运营商、节点数量、可用率以及短效动态/长效静态IP的可用情况。`}
        path="/region/data"
      />
      <Breadcrumb
        items={[{ label: '首页', href: '/' }, { label: '热门地区', href: '/region' }, { label: '地区数据' }]}
      />
      <h1 className="mt-4 text-2xl font-bold text-ink">地区数据</h1>
      <p className="mt-2 text-sm text-slate-600">
        共 {totals.provinces} 个省级行政区、{totals.cities} 个城市、{totals.nodes.toLocaleString('zh-CN')}{' '}
        个节点；数据每小时更新。
      </p>
      <nav aria-label="省份索引" className="mt-4 flex flex-wrap gap-2 text-sm">
        {provinces.map((p) => (
          <a
            key={p.province}
            href={`#${encodeURIComponent(p.province)}`}
            className="rounded bg-white px-2 py-1 ring-1 ring-slate-200 hover:text-brand-700"
          >
            {p.province.replace(/(省|市|自治区|壮族|回族|维吾尔)+$/, '')}
          </a>
        ))}
      </nav>
      <div className="mt-6 space-y-6" data-testid="region-data">
        {provinces.map((p) => (
          <section key={p.province} id={encodeURIComponent(p.province)} className="card overflow-hidden">
            <h2 className="border-b border-slate-100 bg-slate-50 px-4 py-3 font-semibold text-ink">
              {p.province} <span className="text-sm font-normal text-slate-600">（{p.cities.length} 个城市）</span>
            </h2>
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead className="text-left text-slate-600">
                  <tr>
                    <th scope="col" className="px-4 py-2 font-medium">
                      城市
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      运营商
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      节点数
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      可用率
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      短效动态
                    </th>
                    <th scope="col" className="px-4 py-2 font-medium">
                      长效静态
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {p.cities.map((c) => (
                    <tr key={c.city} className="border-t border-slate-100">
                      <td className="px-4 py-2 whitespace-nowrap text-ink">{c.city}</td>
                      <td className="px-4 py-2 whitespace-nowrap">{c.carriers.join(' / ')}</td>
                      <td className="px-4 py-2">{c.nodeCount.toLocaleString('zh-CN')}</td>
                      <td className="px-4 py-2">{c.availability.toFixed(2)}%</td>
                      <td className="px-4 py-2">{c.dynamicOk ? '可用' : '—'}</td>
                      <td className="px-4 py-2">{c.staticOk ? '可用' : '暂无'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
