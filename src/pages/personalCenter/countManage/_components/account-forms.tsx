'use client';
// Account settings forms: phone change (old phone's code, then the new phone's), password change (current password
// or SMS code) and the auto-replace switch. After a credential change every other session is ended by the server.
import { useState } from 'react';
import type { ActionInput } from '../../../../lib/api-core';
import { passwordSchema, phoneSchema, smsCodeSchema } from '../../../../lib/schemas/account';
import { api } from '../../../../state/api';
import { pushToast } from '../../../../state/toast';

function useCountdown(): [number, () => void] {
  const [left, setLeft] = useState(0);
  const start = () => {
    setLeft(60);
    const t = setInterval(
      () =>
        setLeft((n) => {
          if (n > 1) return n - 1;
          clearInterval(t);
          return 0;
        }),
      1000,
    );
  };
  return [left, start];
}

const ok = (r: unknown) => r !== false && r !== null && r !== undefined;

/** The SMS code input with its send button (60 s countdown); `phone` for a code sent to a new phone. */
function CodeField({
  value,
  onChange,
  purpose,
  phone,
}: {
  value: string;
  onChange: (v: string) => void;
  purpose: ActionInput<'User.GetPhoneCode'>['purpose'];
  phone?: string;
}) {
  const [left, start] = useCountdown();
  async function send() {
    if (phone !== undefined && !phoneSchema.safeParse(phone).success)
      return pushToast('error', '请输入正确的11位手机号');
    const r = await api.call('User.GetPhoneCode', phone ? { purpose, phone } : { purpose });
    if (ok(r)) {
      pushToast('success', '验证码已发送');
      start();
    }
  }
  return (
    <div className="flex gap-2">
      <input
        className="input"
        placeholder="6位验证码"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={6}
      />
      <button type="button" className="btn-outline shrink-0 whitespace-nowrap" onClick={send} disabled={left > 0}>
        {left > 0 ? `${left}秒后重发` : '获取验证码'}
      </button>
    </div>
  );
}

export function PhoneChangeForm({ phone }: { phone: string }) {
  const [step, setStep] = useState<'idle' | 'old' | 'new'>('idle');
  const [code, setCode] = useState('');
  const [newPhone, setNewPhone] = useState('');
  async function next() {
    if (!smsCodeSchema.safeParse(code).success) return pushToast('error', '请输入6位数字验证码');
    if (step === 'old') {
      if (ok(await api.call('User.ChangePhone', { step: 'old', code }))) {
        setStep('new');
        setCode('');
      }
      return;
    }
    if (ok(await api.call('User.ChangePhone', { step: 'new', phone: newPhone, code }))) {
      pushToast('success', '手机号已更换，其他设备已退出登录');
      setTimeout(() => window.location.reload(), 800);
    }
  }
  return (
    <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
      <div>
        <p className="font-medium text-ink">手机号</p>
        <p className="text-sm text-slate-500">{phone}</p>
      </div>
      {step === 'idle' ? (
        <button type="button" className="btn-outline" onClick={() => setStep('old')} data-testid="change-phone">
          更换手机号
        </button>
      ) : (
        <div className="flex w-full max-w-md flex-col gap-2">
          <p className="text-xs text-slate-500">{step === 'old' ? '第1步：验证原手机号' : '第2步：验证新手机号'}</p>
          {step === 'new' && (
            <input
              className="input"
              placeholder="新手机号"
              value={newPhone}
              onChange={(e) => setNewPhone(e.target.value)}
              maxLength={11}
            />
          )}
          {/* One field per step: the new phone's code gets its own countdown. */}
          {step === 'old' ? (
            <CodeField key="old" value={code} onChange={setCode} purpose="change_phone_old" />
          ) : (
            <CodeField key="new" value={code} onChange={setCode} purpose="change_phone_new" phone={newPhone} />
          )}
          <button type="button" className="btn-primary" onClick={next}>
            {step === 'old' ? '下一步' : '确认更换'}
          </button>
        </div>
      )}
    </div>
  );
}

export function PasswordForm({ hasPassword: initialHasPassword }: { hasPassword: boolean }) {
  // Once a password has been set here the row says so (and offers the current password) without a reload.
  const [hasPassword, setHasPassword] = useState(initialHasPassword);
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<'password' | 'sms'>(hasPassword ? 'password' : 'sms');
  const [proof, setProof] = useState('');
  const [pwd, setPwd] = useState('');
  const [error, setError] = useState('');
  async function submit() {
    const p = passwordSchema.safeParse(pwd);
    if (!p.success) return setError(p.error.issues[0]?.message ?? '');
    setError('');
    const body = mode === 'password' ? { oldPassword: proof, newPassword: pwd } : { code: proof, newPassword: pwd };
    if (ok(await api.call('User.ChangePwd', body))) {
      pushToast('success', '密码已修改，其他设备已退出登录');
      setOpen(false);
      setProof('');
      setPwd('');
      setHasPassword(true);
      setMode('password');
    }
  }
  return (
    <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
      <div>
        <p className="font-medium text-ink">登录密码</p>
        <p className="text-sm text-slate-500">
          {hasPassword ? '已设置，建议定期更换' : '未设置，设置后可使用密码登录'}
        </p>
      </div>
      {!open ? (
        <button type="button" className="btn-outline" onClick={() => setOpen(true)} data-testid="change-password">
          {hasPassword ? '修改密码' : '设置密码'}
        </button>
      ) : (
        <div className="flex w-full max-w-md flex-col gap-2">
          <div className="flex gap-3 text-xs">
            {hasPassword && (
              <button
                type="button"
                className={mode === 'password' ? 'text-brand-700' : 'text-slate-500'}
                onClick={() => setMode('password')}
              >
                用当前密码验证
              </button>
            )}
            <button
              type="button"
              className={mode === 'sms' ? 'text-brand-700' : 'text-slate-500'}
              onClick={() => setMode('sms')}
            >
              用短信验证码验证
            </button>
          </div>
          {mode === 'password' ? (
            <input
              className="input"
              type="password"
              placeholder="当前密码"
              value={proof}
              onChange={(e) => setProof(e.target.value)}
              autoComplete="current-password"
            />
          ) : (
            <CodeField value={proof} onChange={setProof} purpose="change_pwd" />
          )}
          <input
            className="input"
            type="password"
            placeholder="新密码：8-32位，含字母和数字"
            value={pwd}
            onChange={(e) => setPwd(e.target.value)}
            autoComplete="new-password"
          />
          {error && <p className="text-sm text-red-600">{error}</p>}
          <button type="button" className="btn-primary" onClick={submit}>
            保存
          </button>
        </div>
      )}
    </div>
  );
}

export function AutoReplaceSwitch({ initial }: { initial: boolean }) {
  const [on, setOn] = useState(initial);
  async function toggle() {
    const r = await api.call('User.IsAutoReplace', { value: !on });
    if (r) setOn(r.isAutoReplace);
  }
  return (
    <div className="flex items-center justify-between gap-3">
      <div>
        <p className="font-medium text-ink">固定IP自动更换</p>
        <p className="text-sm text-slate-500">固定IP不可用时自动更换为同地区可用IP</p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-label="固定IP自动更换"
        onClick={toggle}
        className={`relative h-6 w-11 shrink-0 rounded-full transition-colors ${on ? 'bg-brand-600' : 'bg-slate-300'}`}
      >
        <span
          className={`absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition-all ${on ? 'left-5.5' : 'left-0.5'}`}
        />
      </button>
    </div>
  );
}
