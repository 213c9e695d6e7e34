// /businessScen/{type}: one of the eight business scenarios; any other type is a 404.
import { PageHero, SectionTitle } from '../../../components/content/page-hero';
import { notFoundPage } from '../../../components/not-found-view';
import { PageMeta } from '../../../components/page-meta';
import { SCENARIOS } from '../../../lib/site';
import { SCENARIO_CONTENT } from './_components/scenario-content';

export default async function BusinessScenarioPage({ type }: { type: string }) {
  const meta = SCENARIOS.find((s) => s.type === type);
  const c = meta ? SCENARIO_CONTENT[meta.type] : undefined;
  if (!meta || !c) return notFoundPage();
  return (
    <>
      <PageMeta title={c.title} description={c.lead} path={`/businessScen/${meta.type}`} />
      <PageHero eyebrow={`业务场景 · ${meta.label}`} title={c.title} lead={c.lead}>
        <div className="mt-8 flex flex-wrap gap-3">
          <a href={c.setup.href} className="btn bg-white px-6 py-3 text-base text-brand-700 hover:bg-brand-50">
            选购推荐产品
          </a>
          <a href="/firmsServer" className="btn px-6 py-3 text-base text-white ring-1 ring-white/40 hover:bg-white/10">
            咨询企业方案
          </a>
        </div>
      </PageHero>
      <section className="container-page py-14">
        <SectionTitle title="常见难题" />
        <ul className="mt-8 grid gap-5 md:grid-cols-3">
          {c.pains.map((p) => (
            <li key={p.title} className="card p-6">
              <h3 className="font-semibold text-ink">{p.title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{p.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="bg-white py-14">
        {/* min-w-0 on both columns: the code sample scrolls inside its box instead of widening the page on phones. */}
        <div className="container-page grid gap-10 md:grid-cols-2">
          <div className="min-w-0">
            <h2 className="text-2xl font-bold text-ink">我们的方案</h2>
            <ul className="mt-6 space-y-4">
              {c.solution.map((s) => (
                <li key={s} className="flex gap-3 text-slate-700">
                  <span aria-hidden="true" className="mt-1 text-brand-600">
                    ✓
                  </span>
                  <span className="leading-7">{s}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="min-w-0 rounded-xl bg-ink p-6 text-slate-100">
            <h2 className="text-lg font-semibold text-white">推荐配置</h2>
            <p className="mt-3 text-sm text-brand-100">{c.setup.product}</p>
            {'params' in c.setup ? (
              <>
                <p className="mt-4 text-xs text-slate-400">提取参数示例</p>
                <pre className="mt-1 overflow-x-auto rounded-lg bg-black/30 p-3 text-[13px] leading-6">
                  <code>{`GET /extract?key=YOUR_KEY&${c.setup.params}`}</code>
                </pre>
              </>
            ) : (
              <>
                <p className="mt-4 text-xs text-slate-400">使用步骤</p>
                <ol className="mt-2 list-decimal space-y-1.5 pl-5 text-sm leading-6" data-testid="scenario-steps">
                  {c.setup.steps.map((step) => (
                    <li key={step}>{step}</li>
                  ))}
                </ol>
              </>
            )}
            <div className="mt-5 flex flex-wrap gap-3">
              <a href={c.setup.href} className="btn bg-white text-brand-700 hover:bg-brand-50">
                立即购买
              </a>
              <a href="/getProxy/10#api" className="btn text-white ring-1 ring-white/30 hover:bg-white/10">
                查看API文档
              </a>
            </div>
          </div>
        </div>
      </section>
      <section className="container-page grid gap-8 py-14 md:grid-cols-2">
        <div>
          <h2 className="text-xl font-bold text-ink">常见问题</h2>
          <dl className="mt-4 space-y-4">
            {c.faqs.map((f) => (
              <div key={f.q} className="card p-5">
                <dt className="font-semibold text-ink">{f.q}</dt>
                <dd className="mt-2 text-sm leading-6 text-slate-600">{f.a}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div>
          <h2 className="text-xl font-bold text-ink">相关教程</h2>
          <ul className="mt-4 space-y-2">
            {c.articles.map((a) => (
              <li key={a.href}>
                <a href={a.href} className="text-brand-700 hover:underline">
                  {a.label}
                </a>
              </li>
            ))}
          </ul>
          <h2 className="mt-8 text-xl font-bold text-ink">其他场景</h2>
          <ul className="mt-4 flex flex-wrap gap-2">
            {SCENARIOS.filter((s) => s.type !== meta.type).map((s) => (
              <li key={s.type}>
                <a
                  href={`/businessScen/${s.type}`}
                  className="inline-block rounded-full border border-slate-200 bg-white px-3 py-1 text-sm hover:border-brand-300"
                >
                  {s.label}
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
