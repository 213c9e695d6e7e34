// /personalCenter/packageManager/{type}: the user's packages of a product type (10 short, 40 long, 30 fixed).

import { LinkTabs, pageOf, queryOf } from '../../../components/list-page';
import { PageHead } from '../../../components/page-head';
import { Pager } from '../../../components/pager';
import { load } from '../../../server/page-data';
import { PackageTable } from './_components/package-table';

const TABS = [
  { key: '10', type: 10, label: '短效动态IP' },
  { key: '40', type: 40, label: '长效静态IP' },
  { key: '30', type: 30, label: '固定IP' },
] as const;

export default async function PackageManagerPage({ type, query }: { type: string; query?: string }) {
  const q = queryOf(query);
  const tab = TABS.find((t) => t.key === (q.get('type') ?? type)) ?? TABS[0];
  const current = tab.key;
  const page = pageOf(q);
  const data = await load('Proxy.GetProxys', { type: tab.type, page, pageSize: 10 }, { total: 0, list: [] });
  const label = tab.label;
  return (
    <div className="space-y-5" data-testid="package-manager-page">
      <PageHead
        trail={['产品管理', `${label}套餐`]}
        title="套餐管理"
        actions={
          <a className="btn-primary" href={`/buy?type=${current}`}>
            购买{label}
          </a>
        }
      />
      <section className="card overflow-hidden">
        <LinkTabs
          current={current}
          tabs={TABS.map((t) => ({ key: t.key, label: t.label, href: `/personalCenter/packageManager/${t.key}` }))}
        />
        <div className="p-4">
          <PackageTable key={`${current}-${page}`} initial={data.list} type={tab.type} />
          <Pager
            page={page}
            pageSize={10}
            total={data.total}
            href={(p) => `/personalCenter/packageManager/${current}?page=${p}`}
          />
        </div>
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
