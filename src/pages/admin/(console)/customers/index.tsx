// /admin/customers: find a customer by phone (prefix), id or order number (GET form, works without JavaScript).
import {
  Cell,
  DataBody,
  DataHead,
  DataRow,
  DataTable,
  EmptyRow,
  rowAction,
  Th,
} from '../../../../components/data-table';
import { formatDateTime } from '../../../../lib/format';
import { serverApi } from '../../../../server/api-server';
import { CUSTOMER_STATUS_TEXT } from '../../_components/labels';
import { NoAccess, PageTitle } from '../../_components/parts';

export default async function AdminCustomersPage({ query }: { query: string }) {
  const q = (new URLSearchParams(query).get('q') ?? '').slice(0, 64);
  const res = await (await serverApi()).call('Admin.CustomerSearch', { q }, { silent: true });
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="客户" />
      <form method="get" className="flex flex-wrap gap-2" role="search">
        <input
          name="q"
          defaultValue={q}
          className="input max-w-xs flex-1"
          placeholder="手机号 / 用户ID / 订单号"
          aria-label="查找客户"
        />
        <button type="submit" className="btn-primary">
          查找
        </button>
      </form>
      <div className="card overflow-hidden p-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <DataTable data-testid="customer-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-4 py-2">用户</Th>
              <Th className="px-4 py-2">状态</Th>
              <Th className="px-4 py-2">实名</Th>
              <Th className="px-4 py-2">注册时间</Th>
              <Th className="px-4 py-2">操作</Th>
            </tr>
          </DataHead>
          <DataBody>
            {res.list.length === 0 && (
              <EmptyRow cols={5} className="py-8 text-slate-400">
                没有找到客户
              </EmptyRow>
            )}
            {res.list.map((u) => (
              <DataRow key={u.id} className="border-t border-slate-100">
                <Cell kind="title" className="px-4 py-2 font-medium">
                  {u.phone} <span className="text-xs text-slate-400">#{u.id}</span>
                </Cell>
                <Cell label="状态" className="px-4 py-2">
                  <span className={u.status === 1 ? 'text-emerald-600' : 'text-rose-600'}>
                    {CUSTOMER_STATUS_TEXT[u.status] ?? u.status}
                  </span>
                </Cell>
                <Cell label="实名" className="px-4 py-2">
                  {u.companyAuthState === 1
                    ? '企业'
                    : u.isIdentityAuth || [2, 3].includes(u.companyAuthState)
                      ? '个人'
                      : '未认证'}
                </Cell>
                <Cell label="注册时间" className="px-4 py-2">
                  {formatDateTime(u.createdAt)}
                </Cell>
                <Cell kind="actions" className="px-4 py-2">
                  <a href={`/admin/customers/${u.id}`} className={rowAction()}>
                    详情
                  </a>
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </div>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
