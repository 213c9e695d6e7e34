// /personalCenter/buy?type=&tab=1|2: buy a new package (tab 1) or renew, add to and upgrade the ones held (tab 2).
import { Breadcrumb } from '../../components/breadcrumb';
import { BuyPanel } from '../../components/commerce/buy-panel';
import { PackageRenewList } from '../../components/commerce/package-renew-list';
import { PayDialog } from '../../components/commerce/pay-dialog';
import { parseSelection } from '../../lib/buy-selection';
import { isPackageAction, isProductType, PRODUCT_LABEL, PRODUCT_TYPES } from '../../lib/commerce';
import { isRealNameVerified } from '../../lib/identity';
import { pageTitle } from '../../lib/site';
import { currentMineInfo } from '../../server/api-server';
import { load } from '../../server/page-data';

export default async function PcBuyPage({ query }: { query: string }) {
  const params = new URLSearchParams(query);
  const raw = Number(params.get('type'));
  const type = isProductType(raw) ? raw : 10;
  const tab = params.get('tab') === '2' ? 2 : 1;
  const action = params.get('action');
  const initialOpen =
    isPackageAction(action) && Number(params.get('package')) > 0
      ? { packageId: Number(params.get('package')), action }
      : null;
  const [mine, data, packages] = await Promise.all([
    currentMineInfo(),
    load('ProxyMeal.GetMealWithActivity', { type }, { type, meals: [], ipTimes: [], regions: [] }),
    tab === 2 ? load('ProxyUpgrade.getProxyList', { type }, null) : null,
  ]);
  if (!mine) return null;
  const list = packages ? packages.list : [];
  const verified = isRealNameVerified({
    isIdentityAuth: mine.isIdentityAuth,
    companyAuthState: mine.companyAuth.state,
  });
  const tabClass = (active: boolean) =>
    `border-b-2 px-1 pb-3 text-sm font-medium ${active ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-700'}`;
  return (
    <div className="space-y-5">
      <title>{pageTitle('购买套餐')}</title>
      <Breadcrumb
        items={[{ label: '个人中心', href: '/personalCenter' }, { label: '产品管理' }, { label: '购买套餐' }]}
      />
      <h1 className="text-xl font-semibold text-ink">购买套餐</h1>
      <div className="card px-5 pt-4">
        <nav className="flex flex-wrap gap-2" aria-label="产品类型">
          {PRODUCT_TYPES.map((t) => (
            <a
              key={t}
              href={`/personalCenter/buy?type=${t}&tab=${tab}`}
              aria-current={t === type ? 'page' : undefined}
              className={`rounded-full px-3 py-1.5 text-sm ${t === type ? 'bg-brand-600 text-white' : 'bg-slate-100 text-slate-600 hover:bg-slate-200'}`}
            >
              {PRODUCT_LABEL[t]}
            </a>
          ))}
        </nav>
        <div className="mt-4 flex gap-6" role="tablist">
          <a
            role="tab"
            aria-selected={tab === 1}
            className={tabClass(tab === 1)}
            href={`/personalCenter/buy?type=${type}&tab=1`}
          >
            购买新套餐
          </a>
          <a
            role="tab"
            aria-selected={tab === 2}
            className={tabClass(tab === 2)}
            href={`/personalCenter/buy?type=${type}&tab=2`}
          >
            续费 / 补量 / 升级
          </a>
        </div>
      </div>
      {tab === 1 ? (
        <BuyPanel key={type} data={data} user={{ verified }} initial={parseSelection(params)} />
      ) : (
        <PackageRenewList list={list} type={type} initialOpen={initialOpen} />
      )}
      <PayDialog />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
