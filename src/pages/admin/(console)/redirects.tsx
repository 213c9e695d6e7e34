// /admin/redirects: operator path redirects (ops): list, create or replace, delete. The edge looks rules up through
// KV; every change invalidates the cached answer for its path at once (src/server/domain/redirects.ts).
import { Cell, DataBody, DataHead, DataRow, DataTable, EmptyRow, Th } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { serverApi } from '../../../server/api-server';
import { RedirectDelete, RedirectForm } from '../_components/node-tools';
import { NoAccess, PageTitle, Section } from '../_components/parts';

export default async function AdminRedirectsPage() {
  const res = await (await serverApi()).call('Redirect.List', {}, { silent: true });
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="跳转规则" />
      <Section title="新建或替换规则">
        <RedirectForm />
        <p className="mt-2 text-xs text-slate-500">
          同一来源路径再次保存即替换原规则。固定的历史跳转（如 /getApi）不能修改。
        </p>
      </Section>
      <Section title="规则列表">
        <DataTable data-testid="redirect-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-3 py-2">来源</Th>
              <Th className="px-3 py-2">目标</Th>
              <Th className="px-3 py-2">状态码</Th>
              <Th className="px-3 py-2">更新时间</Th>
              <Th className="px-3 py-2">操作</Th>
            </tr>
          </DataHead>
          <DataBody>
            {res.list.length === 0 && (
              <EmptyRow cols={5} className="py-8 text-slate-400">
                没有规则
              </EmptyRow>
            )}
            {res.list.map((r) => (
              <DataRow key={r.fromPath} className="border-t border-slate-100">
                <Cell kind="title" className="break-all px-3 py-2 font-mono text-xs">
                  {r.fromPath}
                </Cell>
                <Cell label="目标" className="break-all px-3 py-2 font-mono text-xs">
                  {r.toPath}
                </Cell>
                <Cell label="状态码" className="px-3 py-2">
                  {r.status}
                </Cell>
                <Cell label="更新时间" className="px-3 py-2">
                  {formatDateTime(r.updatedAt)}
                </Cell>
                <Cell kind="actions" className="px-3 py-2">
                  <RedirectDelete fromPath={r.fromPath} />
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
