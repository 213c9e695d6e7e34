'use client';
// The admin's allow-list of https hosts redirect rules may point to (Redirect.AllowedHostsSave, audited): one host per
// line; a host removed stops its rules at once.
import { field, useFormWrite } from './admin-write';

export function RedirectHostsForm({ hosts }: { hosts: string[] }) {
  const { busy, submit } = useFormWrite(
    'Redirect.AllowedHostsSave',
    (f) => ({
      hosts: field(f, 'hosts')
        .split(/[\s,，]+/)
        .filter(Boolean),
      reason: field(f, 'reason'),
    }),
    '允许的跳转域名已保存',
  );
  return (
    <form onSubmit={submit} className="grid gap-2" data-testid="redirect-hosts-form">
      <textarea
        name="hosts"
        className="input min-h-20 font-mono text-xs"
        defaultValue={hosts.join('\n')}
        aria-label="允许的跳转域名"
        placeholder="每行一个域名，如 partner.example.com"
      />
      <input name="reason" className="input" placeholder="修改原因（记入操作日志）" aria-label="修改原因" required />
      <button type="submit" className="btn-primary justify-self-start" disabled={busy}>
        保存域名
      </button>
    </form>
  );
}
