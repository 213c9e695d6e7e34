// /admin/verifications: personal real-name verifications (support), newest first, name and ID number masked as
// stored (the console never decrypts them); filter by state, page back 50 at a time.
import { Cell, DataBody, DataHead, DataRow, DataTable, EmptyRow, rowAction, Th } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { serverApi } from '../../../server/api-server';
import { VERIFICATION_PROVIDER_TEXT, VERIFICATION_STATE_TEXT } from '../_components/labels';
import { NoAccess, PageTitle } from '../_components/parts';

export default async function AdminVerificationsPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const stateNum = Number(p.get('state') ?? '');
  const state = p.get('state') && [0, 1, 2, 3].includes(stateNum) ? (stateNum as 0 | 1 | 2 | 3) : null;
  const beforeNum = Number(p.get('before') ?? '');
  const beforeId = Number.isInteger(beforeNum) && beforeNum > 0 ? beforeNum : null;
  const res = await (await serverApi()).call('Admin.PersonalVerifications', { state, beforeId }, { silent: true });
  if (!res) return <NoAccess />;
  const older = res.nextBeforeId
    ? `/admin/verifications?${new URLSearchParams({ ...(state !== null ? { state: String(state) } : {}), before: String(res.nextBeforeId) })}`
    : null;
  return (
    <div className="space-y-4">
      <PageTitle title="个人实名记录" />
      <form method="get" className="flex flex-wrap gap-2" role="search">
        <select
          name="state"
          defaultValue={state === null ? '' : String(state)}
          className="input sm:w-48"
          aria-label="认证状态"
        >
          <option value="">全部状态</option>
          {Object.entries(VERIFICATION_STATE_TEXT).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-primary">
          筛选
        </button>
      </form>
      <div className="card overflow-hidden p-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <DataTable data-testid="verification-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-4 py-2">姓名</Th>
              <Th className="px-4 py-2">证件号</Th>
              <Th className="px-4 py-2">状态</Th>
              <Th className="px-4 py-2">核验方</Th>
              <Th className="px-4 py-2">提交时间</Th>
              <Th className="px-4 py-2">客户</Th>
            </tr>
          </DataHead>
          <DataBody>
            {res.list.length === 0 && (
              <EmptyRow cols={6} className="py-8 text-slate-400">
                没有认证记录
              </EmptyRow>
            )}
            {res.list.map((v) => (
              <DataRow key={v.id} className="border-t border-slate-100">
                <Cell kind="title" className="px-4 py-2">
                  {v.nameMasked}
                </Cell>
                <Cell label="证件号" className="px-4 py-2 font-mono text-xs">
                  {v.idMasked}
                </Cell>
                <Cell label="状态" className="px-4 py-2">
                  {VERIFICATION_STATE_TEXT[v.state] ?? v.state}
                  {v.subCode && v.state === 2 ? (
                    <span className="ml-1 text-xs text-slate-400">（{v.subCode}）</span>
                  ) : null}
                </Cell>
                <Cell label="核验方" className="px-4 py-2">
                  {VERIFICATION_PROVIDER_TEXT[v.provider] ?? v.provider}
                </Cell>
                <Cell label="提交时间" className="px-4 py-2">
                  {formatDateTime(v.createdAt)}
                </Cell>
                <Cell kind="actions" className="px-4 py-2">
                  <a href={`/admin/customers/${v.userId}`} className={rowAction()}>
                    用户 #{v.userId}
                  </a>
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </div>
      {older && (
        <p className="text-right text-sm">
          <a href={older} className="text-brand-700 hover:underline">
            更早的记录
          </a>
        </p>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
