'use client';
// The admin's allow-list of https hosts redirect rules may point to (Redirect.AllowedHostsSave, audited): one host per
// line; a host removed stops its rules at once.
import { RecordForm } from './record-form';

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
