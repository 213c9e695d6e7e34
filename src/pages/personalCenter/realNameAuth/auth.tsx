// /personalCenter/realNameAuth/auth: personal verification (and the return from the face page, ?certifyId=...) or the
// company application (?tab=company).
import { TrustPageHead } from '../../../components/trust/page-head';
import { currentMineInfo } from '../../../server/api-server';
import { CompanyAuthForm } from './_components/company-auth-form';
import { PersonalAuthForm } from './_components/personal-auth-form';

export default async function RealNameAuthFormPage({ query }: { query: string }) {
  const info = await currentMineInfo();
  if (!info) return null;
  const q = new URLSearchParams(query);
  const certifyId = q.get('certifyId');
  const tab = q.get('tab') === 'company' && !certifyId ? 'company' : 'personal';
  const tabs = [
    { key: 'personal', label: '个人认证', href: '/personalCenter/realNameAuth/auth?tab=personal' },
    { key: 'company', label: '企业认证', href: '/personalCenter/realNameAuth/auth?tab=company' },
  ];
  return (
    <div className="space-y-5">
      <TrustPageHead
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
            <p className="py-10 text-center text-emerald-700">您已完成个人实名认证</p>
          ) : (
            <PersonalAuthForm certifyId={certifyId} />
          )
        ) : (
          <CompanyAuthForm state={info.companyAuth.state} />
        )}
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
