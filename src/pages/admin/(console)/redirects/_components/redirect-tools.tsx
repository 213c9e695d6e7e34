'use client';
// Redirect rules: create / replace and delete; and the admin's allow-list of https hosts rules may point to
// (Redirect.AllowedHostsSave, audited): one host per line; a host removed stops its rules at once.
import { ReasonAction } from '../../../_components/reason-action';
import { choices, type FormField, RecordForm } from '../../../_components/record-form';

export function RedirectHostsForm({ hosts }: { hosts: string[] }) {
  return (
    <RecordForm
      action="Redirect.AllowedHostsSave"
      fields={[
        {
          name: 'hosts',
          label: '允许的跳转域名',
          kind: 'lines',
          defaultValue: hosts,
          placeholder: '每行一个域名，如 partner.example.com',
        },
        { name: 'reason', label: '修改原因', kind: 'text', placeholder: '记入操作日志', required: true },
      ]}
      submitLabel="保存域名"
      done="允许的跳转域名已保存"
      testId="redirect-hosts-form"
      narrow
    />
  );
}

const REDIRECT_FIELDS: FormField[] = [
  { name: 'fromPath', label: '来源路径', kind: 'text', placeholder: '如 /old-page', required: true },
  { name: 'toPath', label: '目标地址', kind: 'text', placeholder: '站内路径或 https 地址', required: true },
  {
    name: 'status',
    label: '状态码',
    kind: 'select',
    options: choices([
      [301, '301 永久'],
      [302, '302 临时'],
      [307, '307 临时'],
      [308, '308 永久'],
    ]),
  },
];

export function RedirectForm() {
  return (
    <RecordForm
      action="Redirect.Save"
      fields={REDIRECT_FIELDS}
      submitLabel="保存规则"
      done="跳转规则已保存"
      testId="redirect-form"
      reset
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_8rem_auto]"
    />
  );
}

export function RedirectDelete({ fromPath }: { fromPath: string }) {
  return (
    <ReasonAction
      label="删除"
      title="删除跳转规则"
      description={`删除 ${fromPath} 的跳转规则？删除后该路径不再跳转。`}
      action="Redirect.Delete"
      params={{ fromPath }}
      field={null}
      done="已删除"
      buttonClassName="btn-ghost px-2 py-1 text-xs text-rose-600 hover:bg-rose-50"
    />
  );
}
