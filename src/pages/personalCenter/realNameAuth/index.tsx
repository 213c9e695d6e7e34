// /personalCenter/realNameAuth: the account's authentication status (personal and company) and the welfare trial.
import { PageHead } from '../../../components/page-head';
import { WelfareClaim } from '../../../components/trust/welfare-claim';
import { formatDate } from '../../../lib/format';
import { safeRedirect } from '../../../lib/safe-redirect';
import { currentMineInfo } from '../../../server/api-server';
import { load } from '../../../server/page-data';
import { COMPANY_STATE } from '../../../lib/company-states';

export default async function RealNameAuthPage({ query }: { query: string }) {
  const info = await currentMineInfo();
  if (!info) return null;
  const q = new URLSearchParams(query);
  // Sent here from a purchase: say why, keep the chosen package, and lead back to it.
  const next = safeRedirect(q.get('next') ?? q.get('redirect'), '');
  const keep = next ? `&next=${encodeURIComponent(next)}` : '';
  const [auth, progress, welfare, meal] = await Promise.all([
    load('Auth.CompanyAuthResult', {}, null),
    load('Auth.CompanyCertifyResult', {}, null),
    load('User.WelfareAble', {}, { able: false, reason: 'unavailable' }),
    load('ProxyMeal.GetWelfareMeal', {}, { meal: null }),
  ]);
  const verified = info.identityLabel !== '未认证';
  const companyState = progress?.state ?? 0;
  return (
    <div className="space-y-5" data-testid="real-name-page">
      <PageHead trail={[{ label: '账户' }, { label: '实名认证' }]} title="实名认证" />
      {next && (
        <section
          className="card flex flex-col gap-3 border-l-4 border-brand-600 p-5 md:flex-row md:items-center md:justify-between"
          data-testid="purchase-detour"
        >
          <p className="text-sm text-slate-700">
            {info.identityLabel !== '未认证'
              ? '实名认证已完成，您选择的套餐已为您保留。'
              : '根据相关规定，购买代理IP需先完成实名认证。认证约需1分钟，完成后可回到您选择的套餐继续购买。'}
          </p>
          {info.identityLabel !== '未认证' && (
            <a href={next} className="btn-primary shrink-0" data-testid="continue-buying">
              继续购买
            </a>
          )}
        </section>
      )}
      <section className="card flex flex-col gap-3 p-6 md:flex-row md:items-center md:justify-between">
        <div>
          <p className="text-sm text-slate-500">当前认证状态</p>
          <p className="mt-1 flex items-center gap-2 text-lg font-semibold text-ink">
            <span
              data-testid="auth-label"
              className={`rounded px-2 py-0.5 text-sm ${verified ? 'bg-emerald-50 text-emerald-700' : 'bg-amber-50 text-amber-700'}`}
            >
              {info.identityLabel}
            </span>
          </p>
          <p className="mt-2 text-sm text-slate-500">
            根据国家相关法律法规，使用代理服务前需完成实名认证，认证信息加密存储，仅用于合规核验。
          </p>
        </div>
      </section>
      <div className="grid gap-5 md:grid-cols-2">
        <section className="card flex flex-col p-6">
          <h2 className="text-base font-semibold text-ink">个人认证</h2>
          <p className="mt-1 text-sm text-slate-500">姓名 + 身份证号 + 刷脸核验，约1分钟完成</p>
          {auth?.identity ? (
            <dl className="mt-4 space-y-2 text-sm" data-testid="identity-info">
              <div className="flex gap-3">
                <dt className="w-20 text-slate-500">姓名</dt>
                <dd>{auth.identity.name}</dd>
              </div>
              <div className="flex gap-3">
                <dt className="w-20 text-slate-500">身份证号</dt>
                <dd className="font-mono">{auth.identity.idNumber}</dd>
              </div>
              <div className="flex gap-3">
                <dt className="w-20 text-slate-500">认证时间</dt>
                <dd>{formatDate(auth.identity.verifiedAt)}</dd>
              </div>
            </dl>
          ) : info.isIdentityAuth ? (
            <p className="mt-4 text-sm text-emerald-700">已完成个人认证</p>
          ) : (
            <div className="mt-auto pt-6">
              <a
                href={`/personalCenter/realNameAuth/auth?tab=personal${keep}`}
                className="btn-primary"
                data-testid="start-personal"
              >
                立即认证
              </a>
            </div>
          )}
        </section>
        <section className="card flex flex-col p-6">
          <h2 className="text-base font-semibold text-ink">企业认证</h2>
          <p className="mt-1 text-sm text-slate-500">上传营业执照，人工审核1-3个工作日</p>
          <dl className="mt-4 space-y-2 text-sm">
            <div className="flex gap-3">
              <dt className="w-20 text-slate-500">状态</dt>
              <dd data-testid="company-state">{progress?.stateText ?? '未提交'}</dd>
            </div>
            {auth?.companyAuth.companyName && (
              <div className="flex gap-3">
                <dt className="w-20 text-slate-500">企业名称</dt>
                <dd>{auth.companyAuth.companyName}</dd>
              </div>
            )}
            {progress?.reviewRemark && (
              <div className="flex gap-3">
                <dt className="w-20 text-slate-500">审核意见</dt>
                <dd>{progress.reviewRemark}</dd>
              </div>
            )}
          </dl>
          {(companyState === COMPANY_STATE.none || companyState === COMPANY_STATE.rejected) && (
            <div className="mt-auto pt-6">
              <a href="/personalCenter/realNameAuth/auth?tab=company" className="btn-outline">
                {companyState === COMPANY_STATE.rejected ? '重新提交' : '企业认证'}
              </a>
            </div>
          )}
        </section>
      </div>
      {meal.meal && (
        <section className="card flex flex-col gap-4 bg-gradient-to-r from-brand-50 to-white p-6 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 className="text-base font-semibold text-ink">实名福利：{meal.meal.name}</h2>
            <p className="mt-1 text-sm text-slate-500">
              {meal.meal.ipCount}个IP，每个IP有效{meal.meal.ipDurationMinutes}分钟，套餐{meal.meal.validDays}
              天内有效；每个实名身份限领一次
            </p>
          </div>
          <WelfareClaim able={welfare.able} reason={welfare.reason} />
        </section>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
