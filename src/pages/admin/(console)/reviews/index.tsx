// /admin/reviews: company authentication applications waiting for review (support), with the licence image and the
// decisions approve (企业已认证), individual (按个人认证) and reject; each with a remark shown to the applicant.
import { formatDateTime } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { NoAccess, PageTitle } from '../../_components/parts';
import { ReasonAction } from '../../_components/reason-action';

const DECISIONS = [
  ['approve', '通过', '通过企业认证', '该账号将显示为企业已认证。', 'primary'],
  ['individual', '按个人认证', '不作为企业认证', '执照不被接受为企业，申请人按个人认证处理。', 'primary'],
  ['reject', '驳回', '驳回申请', '申请人可修改后重新提交。', 'danger'],
] as const;

export default async function AdminReviewsPage() {
  const res = await load('Auth.CompanyReviewList', { state: 4 }, false);
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="企业认证审核" />
      {res.list.length === 0 && <p className="card p-6 text-sm text-slate-500">没有待审核的申请。</p>}
      <ul className="space-y-3" data-testid="review-list">
        {res.list.map((a) => (
          <li key={a.id} className="card space-y-2 p-4 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-semibold text-slate-900">{a.companyName}</p>
              <span className="text-xs text-slate-400">提交于 {formatDateTime(a.createdAt)}</span>
            </div>
            <p className="text-slate-600">
              统一社会信用代码 {a.creditCode} · 法人 {a.legalPerson} ·{' '}
              <a href={`/admin/customers/${a.userId}`} className="text-brand-700 hover:underline">
                用户 #{a.userId}
              </a>{' '}
              ·{' '}
              <a
                href={`/api/upload/company-licence/${a.licenceUploadId}`}
                target="_blank"
                rel="noreferrer"
                className="text-brand-700 hover:underline"
              >
                查看营业执照
              </a>
            </p>
            <a
              href={`/api/upload/company-licence/${a.licenceUploadId}`}
              target="_blank"
              rel="noreferrer"
              className="block w-fit max-w-full"
            >
              <img
                src={`/api/upload/company-licence/${a.licenceUploadId}`}
                alt={`${a.companyName}的营业执照`}
                loading="lazy"
                className="max-h-56 w-auto max-w-full rounded border border-slate-200 bg-slate-50 object-contain"
                data-testid="review-licence"
              />
            </a>
            {a.userRemark && <p className="rounded bg-slate-50 p-2 text-slate-600">申请人备注：{a.userRemark}</p>}
            <div className="flex flex-wrap gap-2">
              {DECISIONS.map(([decision, label, title, description, tone]) => (
                <ReasonAction
                  key={decision}
                  label={label}
                  title={title}
                  description={description}
                  action="Auth.CompanyReview"
                  params={{ id: a.id, decision }}
                  field="remark"
                  fieldLabel="审核意见（申请人可见，可留空）"
                  done="已处理"
                  tone={tone}
                />
              ))}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
