'use client';
// 修改密码: the operator changes their own password in the console's dialog, re-authenticated by the current password
// and a fresh code from their authenticator; the server ends every other session of theirs (Operator.ChangePassword).
import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { OPERATOR_PASSWORD_MIN, operatorPasswordProblem } from '../../../lib/operator-password';
import { pushToast } from '../../../state/toast';
import { useConsoleWrite } from './console-write';

const EMPTY = { currentPassword: '', code: '', newPassword: '', confirm: '' };

export function ChangePasswordButton({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const { busy, run } = useConsoleWrite();
  const set = (name: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  async function confirm() {
    const problem =
      form.newPassword !== form.confirm
        ? '两次输入的新密码不一致'
        : operatorPasswordProblem(form.newPassword, username);
    if (problem) {
      pushToast('error', problem);
      return;
    }
    const { confirm: _, ...input } = form;
    const res = await run('Operator.ChangePassword', input, '密码已修改，其他设备上的登录已退出');
    if (res === false) return;
    setOpen(false);
    setForm(EMPTY);
  }
  const fields: [keyof typeof EMPTY, string, string][] = [
    ['currentPassword', '当前密码', 'password'],
    ['code', '动态验证码（6位）', 'text'],
    ['newPassword', `新密码（至少${OPERATOR_PASSWORD_MIN}位，不能是常见密码）`, 'password'],
    ['confirm', '再次输入新密码', 'password'],
  ];
  return (
    <>
      <button
        type="button"
        className="btn-ghost px-2 py-1 text-xs"
        data-testid="change-password"
        onClick={() => setOpen(true)}
      >
        修改密码
      </button>
      <Dialog
        open={open}
        title="修改密码"
        onClose={() => setOpen(false)}
        onConfirm={confirm}
        confirmText={busy ? '处理中…' : '确定'}
      >
        {fields.map(([name, label, type]) => (
          <label key={name} className="mb-3 block">
            <span className="mb-1 block text-slate-600">{label}</span>
            <input
              className="input"
              name={name}
              type={type}
              value={form[name]}
              onChange={set(name)}
              autoComplete={
                name === 'currentPassword' ? 'current-password' : name === 'code' ? 'one-time-code' : 'new-password'
              }
              inputMode={name === 'code' ? 'numeric' : undefined}
            />
          </label>
        ))}
      </Dialog>
    </>
  );
}
