// /personalCenter: the account summary with the identity label and the next steps.
import { Breadcrumb } from '../../components/breadcrumb';
import { formatDate } from '../../lib/format';
import { REAL_NAME_FORM } from '../../lib/personal-center-nav';
import { pageTitle } from '../../lib/site';
import { currentMineInfo } from '../../server/api-server';
import { load } from '../../server/page-data';

export default async function PersonalCenterHome() {
  const info = await currentMineInfo();
  if (!info) return null;
  const verified = info.identityLabel !== '未认证';
  const done = await load('User.GetStartSteps', {}, { bought: false, whitelisted: false, extracted: false });
  const steps = [
    { done: true, title: '注册账号', desc: '已完成' },
    {
      done: verified,
      title: '实名认证',
      desc: verified ? info.identityLabel : '根据国家规定，使用代理服务前需完成实名认证',
    },
    {
      done: done.bought,
      title: '购买套餐',
      desc: done.bought ? '已完成首次购买' : '选择短效、长效、固定或优质IP套餐',
    },
    {
      done: done.whitelisted && done.extracted,
      title: '添加白名单并提取',
      desc:
        done.whitelisted && done.extracted
          ? '已添加白名单并成功提取IP'
          : done.whitelisted
            ? '已添加白名单，下一步通过API提取IP'
            : '把使用代理的服务器IP加入白名单，即可通过API提取',
    },
  ];
  return (
    <div className="space-y-5">
      <title>{pageTitle('个人中心')}</title>
      <Breadcrumb items={[{ label: '个人中心' }]} />
      <h1 className="text-xl font-semibold text-ink">个人中心</h1>
      <section
        className="card flex flex-col gap-5 p-6 md:flex-row md:items-center md:justify-between"
        data-testid="account-summary"
      >
        <div className="flex items-center gap-4">
          <span
            className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700"
            aria-hidden="true"
          >
            <svg viewBox="0 0 20 20" className="h-7 w-7" aria-hidden="true">
              <circle cx="10" cy="7" r="3.2" fill="currentColor" />
              <path d="M3.5 17c.8-3.2 3.4-5 6.5-5s5.7 1.8 6.5 5" fill="currentColor" />
            </svg>
          </span>
          <div>
            <div className="text-xl font-semibold text-ink" data-testid="pc-phone">
              {info.phone}
            </div>
            <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-500">
              <span
                data-testid="pc-identity"
                className={`rounded px-2 py-0.5 text-xs ${verified ? 'bg-emerald-50 text-emerald-700' : 'bg-amber-50 text-amber-700'}`}
              >
                {info.identityLabel}
              </span>
              <span>注册于 {formatDate(info.createdAt)}</span>
              <span>用户ID {info.id}</span>
            </div>
          </div>
        </div>
        <div className="flex gap-3">
          {!verified && (
            <a href={REAL_NAME_FORM} className="btn-primary">
              去实名认证
            </a>
          )}
          <a href="/buy?type=10" className="btn-outline">
            购买套餐
          </a>
        </div>
      </section>
      <section className="card p-6">
        <h2 className="mb-4 text-base font-semibold text-ink">开始使用</h2>
        <ol className="grid gap-4 md:grid-cols-4">
          {steps.map((s, i) => (
            <li
              key={s.title}
              data-testid="start-step"
              data-done={s.done ? 'true' : 'false'}
              className={`rounded-xl border p-4 ${s.done ? 'border-emerald-200 bg-emerald-50/50' : 'border-slate-200'}`}
            >
              <div className="flex items-center gap-2">
                <span
                  className={`flex h-6 w-6 items-center justify-center rounded-full text-xs font-semibold ${s.done ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-600'}`}
                >
                  {s.done ? '✓' : i + 1}
                </span>
                <span className="font-medium text-ink">{s.title}</span>
              </div>
              <p className="mt-2 text-sm text-slate-500">{s.desc}</p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
