// A legal document page: title, effective date, a table of contents and numbered sections of paragraphs.
import { Breadcrumb } from '../../../components/breadcrumb';
import { SITE } from '../../../lib/site';

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export function LegalDoc({
  title,
  effective,
  intro,
  sections,
}: {
  title: string;
  effective: string;
  intro: string;
  sections: LegalSection[];
}) {
  return (
    <div className="container-page py-6 md:py-10">
      <Breadcrumb items={[{ label: '首页', href: '/' }, { label: title }]} />
      <article className="card mt-4 p-5 md:p-10" data-testid="legal-doc">
        <h1 className="text-2xl font-bold text-ink md:text-3xl">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">
          生效日期：{effective} · 运营方：{SITE.companyName}
        </p>
        <p className="mt-6 leading-7 text-slate-700">{intro}</p>
        <nav aria-label="目录" className="mt-6 rounded-lg bg-slate-50 p-4 text-sm">
          <ol className="grid gap-1 md:grid-cols-2">
            {sections.map((s, i) => (
              <li key={s.title}>
                <a href={`#s${i + 1}`} className="text-brand-700 hover:underline">
                  {i + 1}. {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((s, i) => (
          <section key={s.title} id={`s${i + 1}`} className="mt-8 scroll-mt-24">
            <h2 className="text-lg font-semibold text-ink">
              {i + 1}. {s.title}
            </h2>
            {s.paragraphs.map((p, j) => (
              <p key={p.slice(0, 24)} className="mt-3 text-[15px] leading-7 text-slate-700">
                {i + 1}.{j + 1} {p}
              </p>
            ))}
          </section>
        ))}
        <p className="mt-10 text-sm text-slate-600">
          如对本文件有任何疑问，请联系客服热线 {SITE.hotline} 或发送邮件至 {SITE.email}。
        </p>
      </article>
    </div>
  );
}
