// /admin/redirects: operator path redirects (ops): list, create or replace, delete. The edge looks rules up through
// KV; every change invalidates the cached answer for its path at once (src/server/domain/redirects.ts).

import type { ActionOutput } from '../../../../lib/api-core';
import { formatDateTime } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { canCall } from '../../../../server/operator-access';
import { type Column, ListTable } from '../../_components/console-list';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { RedirectDelete, RedirectForm, RedirectHostsForm } from './_components/redirect-tools';

type RedirectRow = ActionOutput<'Redirect.List'>['list'][number];

const COLUMNS: Column<RedirectRow>[] = [
  { head: '来源', kind: 'title', className: 'break-all font-mono text-xs', cell: (r) => r.fromPath },
  { head: '目标', className: 'break-all font-mono text-xs', cell: (r) => r.toPath },
  { head: '状态码', cell: (r) => r.status },
  { head: '更新时间', cell: (r) => formatDateTime(r.updatedAt) },
  { head: '操作', kind: 'actions', cell: (r) => <RedirectDelete fromPath={r.fromPath} /> },
];

export default async function AdminRedirectsPage() {
  const res = await load('Redirect.List', {}, false);
  if (!res) return <NoAccess />;
  const allowed = await load('Redirect.AllowedHosts', {}, false);
  const me = await load('Operator.Me', {}, false);
  return (
    <div className="space-y-4">
      <PageTitle title="跳转规则" />
      <Section title="新建或替换规则">
        <RedirectForm />
        <p className="mt-2 text-xs text-slate-500">
          同一来源路径再次保存即替换原规则。固定的历史跳转（如
          /getApi）、运营后台、登录、个人中心、接口、节点与支付路径不能设置跳转； 站外目标只能是管理员允许的 https
          域名。
        </p>
      </Section>
      <Section title="允许的站外跳转域名">
        {me && canCall(me.role, 'Redirect.AllowedHostsSave') ? (
          <RedirectHostsForm hosts={allowed ? allowed.hosts : []} />
        ) : (
          <p className="text-sm text-slate-600">
            {(allowed ? allowed.hosts : []).join('、') || '暂无（只能跳转到站内路径）'}
            <span className="ml-2 text-xs text-slate-500">由管理员维护</span>
          </p>
        )}
      </Section>
      <Section title="规则列表">
        <ListTable
          data-testid="redirect-table"
          rows={res.list}
          rowKey={(r) => r.fromPath}
          empty="没有规则"
          pad="px-3"
          columns={COLUMNS}
        />
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
