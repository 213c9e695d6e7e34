// Home: the hero with the seed's claims, the four product lines and the business scenarios.
import { PRODUCT_LINKS, SCENARIOS, SITE } from '../../lib/site';

const CLAIMS = [
  { value: '300+', label: '覆盖城市' },
  { value: '99.83%', label: 'IP可用率' },
  { value: '1000+', label: '服务企业' },
  { value: '9000万+', label: '海外IP资源' },
];

export default async function HomePage() {
  return (
    <>
      <title>{`${SITE.name} - ${SITE.slogan}`}</title>
      <meta
        name="description"
        content="云枢代理提供短效动态IP、长效静态IP、固定IP与企业定制IP，覆盖全国300+城市，IP可用率99.83%，支持API提取与白名单认证。"
      />
      <section className="relative overflow-hidden bg-[radial-gradient(ellipse_at_top_right,#3372ff_0%,#1935b6_45%,#0f1b3d_100%)] pt-28 pb-20 text-white md:pt-40 md:pb-28">
        <div className="container-page relative">
          <p className="mb-4 inline-flex rounded-full bg-white/10 px-3 py-1 text-xs tracking-wider text-brand-100 ring-1 ring-white/20">
            实名认证 · 合规运营 · 企业级稳定性
          </p>
          <h1 className="max-w-2xl text-3xl leading-tight font-bold md:text-5xl">高匿名代理IP，让数据业务稳定在线</h1>
          <p className="mt-5 max-w-xl text-base leading-7 text-brand-100 md:text-lg">
            短效动态、长效静态、固定独享与企业定制四条产品线，API 秒级提取，白名单一键授权，按量或按时灵活计费。
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
          <dl className="mt-14 grid max-w-3xl grid-cols-2 gap-6 md:grid-cols-4">
            {CLAIMS.map((c) => (
              <div key={c.label} className="flex flex-col-reverse">
                <dt className="mt-1 text-sm text-brand-200">{c.label}</dt>
                <dd className="text-2xl font-bold md:text-3xl">{c.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section className="container-page py-16">
        <h2 className="text-center text-2xl font-bold text-ink md:text-3xl">四大产品线，覆盖全部业务场景</h2>
        <p className="mt-3 text-center text-slate-500">从分钟级轮换到长期固定出口，按需选择</p>
        <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {PRODUCT_LINKS.map((p) => (
            <li key={p.href} className="card flex flex-col p-6 transition-shadow hover:shadow-md">
              <h3 className="text-lg font-semibold text-ink">{p.label}</h3>
              <p className="mt-2 flex-1 text-sm text-slate-500">{p.desc}</p>
              <a href={p.href} className="btn-outline mt-6">
                查看套餐
              </a>
            </li>
          ))}
        </ul>
      </section>

      <section className="bg-white py-16">
        <div className="container-page">
          <h2 className="text-center text-2xl font-bold text-ink md:text-3xl">业务场景</h2>
          <ul className="mt-10 grid grid-cols-2 gap-4 md:grid-cols-4">
            {SCENARIOS.map((s) => (
              <li key={s.type}>
                <a
                  href={`/businessScen/${s.type}`}
                  className="block h-full rounded-xl border border-slate-100 bg-slate-50 p-5 hover:border-brand-200 hover:bg-brand-50"
                >
                  <span className="block font-semibold text-ink">{s.label}</span>
                  <span className="mt-2 block text-sm text-slate-500">{s.desc}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
