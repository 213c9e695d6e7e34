// /admin/consultations: enterprise consultations from /firmsServer (support): by state, newest first, 50 a page;
// mark contacted, close or reopen.

import { CONSULT_STATE_TEXT } from '../../../../lib/consult-options';
import { formatDateTime } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { ConsultActions } from './_components/consult-tools';
import { NoAccess, PageTitle } from '../../_components/parts';

export default async function AdminConsultationsPage({ query }: { query: string }) {
  const sp = new URLSearchParams(query);
  const raw = sp.get('state');
  const state = raw === 'all' ? null : raw === '1' ? 1 : raw === '2' ? 2 : 0;
  const before = Number(sp.get('before'));
  const res = await load('Admin.ConsultList', { state, beforeId: before > 0 ? before : null }, false);
  if (!res) return <NoAccess />;
  const countOf = (s: number) => res.counts.find((c) => c.state === s)?.n ?? 0;
  const tabs: [string, string][] = [
    ['0', `待处理 ${countOf(0)}`],
    ['1', `已联系 ${countOf(1)}`],
    ['2', `已关闭 ${countOf(2)}`],
    ['all', '全部'],
  ];
  const current = state === null ? 'all' : String(state);
  const last = res.list.at(-1);
  return (
    <div className="space-y-4">
      <PageTitle title="企业咨询" />
      <nav className="flex flex-wrap gap-2" aria-label="咨询状态">
        {tabs.map(([v, label]) => (
          <a
            key={v}
            href={`/admin/consultations?state=${v}`}
            aria-current={current === v ? 'page' : undefined}
            className="rounded-full border border-slate-200 bg-white px-3 py-1 text-sm aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700"
          >
            {label}
          </a>
        ))}
      </nav>
      {res.list.length === 0 && <p className="card p-6 text-sm text-slate-500">没有咨询。</p>}
      <ul className="space-y-3" data-testid="consult-list">
        {res.list.map((c) => (
          <li key={c.id} className="card space-y-2 p-4 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-semibold text-slate-900">
                {c.company} <span className="text-xs font-normal text-slate-400">#{c.id}</span>
              </p>
              <span className="text-xs text-slate-400">
                {CONSULT_STATE_TEXT[c.state]} · {formatDateTime(c.createdAt)}
              </span>
            </div>
            <p className="break-all text-slate-600">
              {c.contactName} · {c.phone}
              {c.email ? ` · ${c.email}` : ''}
              {c.userId ? (
                <>
                  {' · '}
                  <a href={`/admin/customers/${c.userId}`} className="text-brand-700 hover:underline">
                    用户 #{c.userId}
                  </a>
                </>
              ) : null}
            </p>
            <p className="text-slate-600">
              场景：{c.scenario} · 月用量：{c.monthlyVolume}
            </p>
            {c.message && (
              <p className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 text-slate-700">{c.message}</p>
            )}
            <ConsultActions id={c.id} state={c.state} />
          </li>
        ))}
      </ul>
      {res.list.length === 50 && last && (
        <a href={`/admin/consultations?state=${current}&before=${last.id}`} className="btn-ghost">
          下一页
        </a>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
