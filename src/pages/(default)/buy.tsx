// /buy?type=10|40|30|50: the public order page with live prices for one product type.
import { BuyPanel } from '../../components/commerce/buy-panel';
import { PayDialog } from '../../components/commerce/pay-dialog';
import { parseSelection } from '../../lib/buy-selection';
import { isProductType, PRODUCT_LABEL, PRODUCT_TYPES } from '../../lib/commerce';
import { formatFen } from '../../lib/format';
import { isRealNameVerified } from '../../lib/identity';
import { pageTitle } from '../../lib/site';
import { currentMineInfo } from '../../server/api-server';
import { load } from '../../server/page-data';

const INTRO: Record<number, string> = {
  10: 'IP有效期3-30分钟，海量IP池秒级轮换，按量或包天计费，适合数据采集与高并发业务',
  40: 'IP有效期1-24小时，稳定不掉线，适合账号运营、广告验证等需要会话保持的场景',
  30: '独享固定出口IP，按周期使用，全国20个热门城市可选',
  50: '企业定制与精选线路，覆盖国内外优质节点，专属客服保障',
};

export default async function BuyPage({ query }: { query: string }) {
  const params = new URLSearchParams(query);
  const raw = Number(params.get('type'));
  const type = isProductType(raw) ? raw : 10;
  const [data, ov, mine] = await Promise.all([
    load('ProxyMeal.GetMealWithActivity', { type }, { type, meals: [], ipTimes: [], regions: [] }),
    load('ProxyMeal.GetMealOverview', {}, null),
    currentMineInfo(),
  ]);
  const user = mine
    ? {
        verified: isRealNameVerified({ isIdentityAuth: mine.isIdentityAuth, companyAuthState: mine.companyAuth.state }),
      }
    : null;
  return (
    <div className="bg-slate-50 pb-16">
      <title>{pageTitle(`购买${PRODUCT_LABEL[type]}`)}</title>
      <meta name="description" content={`${PRODUCT_LABEL[type]}套餐价格与购买：${INTRO[type]}`} />
      <section className="bg-[linear-gradient(120deg,#1935b6,#3372ff)] pt-24 pb-10 text-white md:pt-28">
        <div className="container-page">
          <h1 className="text-2xl font-bold md:text-3xl">{PRODUCT_LABEL[type]}</h1>
          <p className="mt-2 max-w-2xl text-sm text-brand-100 md:text-base">{INTRO[type]}</p>
          <nav className="mt-6 flex flex-wrap gap-2" aria-label="产品类型">
            {PRODUCT_TYPES.map((t) => {
              const discount = ov?.meaDiscountMax[t] ?? 0;
              const bonus = ov?.mealSendMax[t] ?? 0;
              const tag =
                t === 50 ? '超低折扣' : discount > 0 ? `折扣${discount}%` : bonus > 0 ? `赠量${bonus}%` : null;
              return (
                <a
                  key={t}
                  href={`/buy?type=${t}`}
                  aria-current={t === type ? 'page' : undefined}
                  className={`relative rounded-lg px-4 py-2 text-sm font-medium ${t === type ? 'bg-white text-brand-700' : 'bg-white/10 text-white hover:bg-white/20'}`}
                >
                  {PRODUCT_LABEL[t]}
                  {tag && (
                    <span className="absolute -top-2 -right-2 rounded-full bg-rose-500 px-1.5 py-0.5 text-[10px] leading-none text-white">
                      {tag}
                    </span>
                  )}
                  {ov?.mealMinPrice[t] ? (
                    <span className={`ml-2 text-xs ${t === type ? 'text-slate-600' : 'opacity-70'}`}>
                      {formatFen(ov.mealMinPrice[t] ?? 0)}起
                    </span>
                  ) : null}
                </a>
              );
            })}
          </nav>
        </div>
      </section>
      <div className="container-page -mt-4">
        <BuyPanel key={type} data={data} user={user} initial={parseSelection(params)} />
      </div>
      <PayDialog />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
