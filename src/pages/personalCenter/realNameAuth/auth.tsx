// /personalCenter/realNameAuth/auth: personal verification (and the return from the face page, ?certifyId=...) or the
// company application (?tab=company).
import { PageHead } from '../../../components/page-head';
import { safeRedirect } from '../../../lib/safe-redirect';
import { currentMineInfo } from '../../../server/api-server';
import { CompanyAuthForm } from './_components/company-auth-form';
import { PersonalAuthForm } from './_components/personal-auth-form';

export default async function RealNameAuthFormPage({ query }: { query: string }) {
  const info = await currentMineInfo();
  if (!info) return null;
  const q = new URLSearchParams(query);
  const certifyId = q.get('certifyId');
  const tab = q.get('tab') === 'company' && !certifyId ? 'company' : 'personal';
  // Where the customer was going (the buy page with the chosen package); kept through the face page.
  const next = safeRedirect(q.get('next') ?? q.get('redirect'), '');
  const keep = next ? `&next=${encodeURIComponent(next)}` : '';
  const tabs = [
    { key: 'personal', label: '个人认证', href: `/personalCenter/realNameAuth/auth?tab=personal${keep}` },
    { key: 'company', label: '企业认证', href: `/personalCenter/realNameAuth/auth?tab=company${keep}` },
  ];
  return (
    <div className="space-y-5">
      <PageHead
        trail={[{ label: '账户' }, { label: '实名认证', href: '/personalCenter/realNameAuth' }, { label: '认证' }]}
        title="实名认证"
      />
      <section className="card p-6">
        <nav className="mb-4 flex gap-1 border-b border-slate-200" aria-label="认证方式">
          {tabs.map((t) => (
            <a
              key={t.key}
              href={t.href}
              aria-current={t.key === tab ? 'page' : undefined}
              className={`-mb-px border-b-2 px-4 py-2 text-sm ${t.key === tab ? 'border-brand-600 font-medium text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-700'}`}
            >
              {t.label}
            </a>
          ))}
        </nav>
        {tab === 'personal' ? (
          info.isIdentityAuth && !certifyId ? (
            <div className="py-10 text-center">
              <p className="text-emerald-700">您已完成个人实名认证</p>
              {next && (
                <a href={next} className="btn-primary mt-4" data-testid="continue-buying">
                  继续购买
                </a>
              )}
            </div>
          ) : (
            <PersonalAuthForm certifyId={certifyId} next={next} />
          )
        ) : (
          <CompanyAuthForm state={info.companyAuth.state} />
        )}
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
