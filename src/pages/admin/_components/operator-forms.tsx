'use client';
// Operator accounts (admin): create one (initial password told in person; TOTP at their first login), change role or
// status, reset password and second factor. Each change needs a reason except creation.
import { type FormEvent, useState } from 'react';
import { useRouter } from 'waku/router/client';
import type { ActionInput } from '../../../lib/api-core';
import { OPERATOR_ROLE_LABEL, OPERATOR_ROLES, type OperatorRole } from '../../../lib/operator-roles';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';

export function CreateOperatorForm() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    setBusy(true);
    const res = await adminApi.call('Admin.OperatorCreate', {
      username: String(f.get('username') ?? ''),
      displayName: String(f.get('displayName') ?? ''),
      // The select offers OPERATOR_ROLES only; the server validates it again.
      role: String(f.get('role') ?? '') as OperatorRole,
      password: String(f.get('password') ?? ''),
    });
    setBusy(false);
    if (res === false) return;
    form.reset();
    pushToast('success', '已创建，请线下告知初始密码；对方首次登录时绑定动态验证码');
    await router.reload();
  }
  return (
    <form onSubmit={submit} className="grid gap-2 sm:grid-cols-2 lg:grid-cols-5" data-testid="operator-create">
      <input name="username" className="input" placeholder="账号（字母数字）" aria-label="账号" required />
      <input name="displayName" className="input" placeholder="姓名" aria-label="姓名" required />
      <select name="role" className="input" aria-label="角色" defaultValue="support">
        {OPERATOR_ROLES.map((r) => (
          <option key={r} value={r}>
            {OPERATOR_ROLE_LABEL[r]}
          </option>
        ))}
      </select>
      <input
        name="password"
        type="text"
        className="input"
        placeholder="初始密码（至少12位）"
        aria-label="初始密码"
        required
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        新建账号
      </button>
    </form>
  );
}

export function OperatorRowActions({ id, role, status }: { id: number; role: OperatorRole; status: 1 | 2 }) {
  const router = useRouter();
  const [nextRole, setNextRole] = useState<OperatorRole>(role);
  async function run<N extends 'Admin.OperatorUpdate' | 'Admin.OperatorReset'>(
    action: N,
    params: Omit<ActionInput<N>, 'id' | 'reason'>,
    done: string,
  ) {
    const reason = window.prompt('请填写原因（记入操作日志）') ?? '';
    if (!reason) return;
    const res = await adminApi.call(action, { id, ...params, reason } as ActionInput<N>);
    if (res === false) return;
    pushToast('success', done);
    await router.reload();
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <select
        className="input w-24 py-1"
        aria-label="角色"
        value={nextRole}
        onChange={(e) => setNextRole(e.target.value as OperatorRole)}
      >
        {OPERATOR_ROLES.map((r) => (
          <option key={r} value={r}>
            {OPERATOR_ROLE_LABEL[r]}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn-ghost px-2 py-1 text-xs"
        disabled={nextRole === role}
        onClick={() => run('Admin.OperatorUpdate', { role: nextRole, status }, '角色已修改')}
      >
        改角色
      </button>
      <button
        type="button"
        className="btn-ghost px-2 py-1 text-xs"
        onClick={() =>
          run('Admin.OperatorUpdate', { role, status: status === 1 ? 2 : 1 }, status === 1 ? '已停用' : '已启用')
        }
      >
        {status === 1 ? '停用' : '启用'}
      </button>
      <button
        type="button"
        className="btn-ghost px-2 py-1 text-xs"
        onClick={() => {
          const password = window.prompt('新的初始密码（至少12位）') ?? '';
          if (password) void run('Admin.OperatorReset', { password }, '已重置，对方下次登录需重新绑定动态验证码');
        }}
      >
        重置密码与验证器
      </button>
    </div>
  );
}
