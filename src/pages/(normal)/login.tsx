// /login (password and SMS tabs); /login?type=sms is registration. Logged-in visitors go straight on.
import { unstable_redirect as redirect } from 'waku/router/server';
import { coverageFigures } from '../../lib/coverage-figures';
import { safeRedirect } from '../../lib/safe-redirect';
import { pageTitle, SITE } from '../../lib/site';
import { currentMineInfo } from '../../server/api-server';
import { loadCoverage } from '../../server/regions-page';
import { LoginForm } from './_components/login-form';

const perks = (cities: string, availability: string | null) => [
  '注册即送免费试用套餐（实名后领取）',
  `${cities} 个城市节点${availability ? `，IP可用率 ${availability}` : ''}`,
  'API 秒级提取，支持白名单授权',
  '7×24 小时技术支持',
];

export default async function LoginPage({ query }: { query: string }) {
  const params = new URLSearchParams(query);
  const target = safeRedirect(params.get('redirect'));
  if (await currentMineInfo()) redirect(target);
  const type = params.get('type') ?? '';
  const figures = coverageFigures((await loadCoverage()).totals);
  return (
    <div className="bg-[linear-gradient(160deg,#eef5ff_0%,#f8fafc_60%)]">
      <title>{pageTitle(type === 'sms' ? '注册' : '登录')}</title>
      <meta name="robots" content="noindex" />
      <div className="container-page grid items-center gap-10 py-12 md:grid-cols-2 md:py-20">
        <div className="hidden md:block">
          <h2 className="text-3xl leading-snug font-bold text-ink">
            {SITE.name}
            <br />
            {SITE.slogan}
          </h2>
          <ul className="mt-8 space-y-4">
            {perks(figures.cities, figures.availability).map((p) => (
              <li key={p} className="flex items-center gap-3 text-slate-600">
                <span className="flex h-6 w-6 items-center justify-center rounded-full bg-brand-100 text-brand-700">
                  ✓
                </span>
                {p}
              </li>
            ))}
          </ul>
        </div>
        <div className="flex justify-center md:justify-end">
          <LoginForm initialType={type} redirect={target} expired={params.get('expired') === '1'} />
        </div>
      </div>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
