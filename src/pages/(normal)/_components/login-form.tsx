'use client';
// Login and registration: password or SMS code (?type=sms opens registration). Validation uses the same schemas as
// the server; server errors arrive as toasts.
import { useSetAtom } from 'jotai';
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../../../lib/api-browser';
import { messages } from '../../../lib/messages';
import { safeRedirect } from '../../../lib/safe-redirect';
import { loginPasswordSchema, phoneSchema, smsCodeSchema } from '../../../lib/schemas';
import { type ClientMineInfo, mineInfoAtom } from '../../../state/session';
import { pushToast } from '../../../state/toast';

type Tab = 'password' | 'sms';
type LoginAnswer = { state: 1; isNew: boolean; mineInfo: ClientMineInfo } | { state: 2 };

const RESEND_SECONDS = 60;

export function LoginForm({
  initialType,
  redirect,
  expired = false,
}: {
  initialType: string;
  redirect: string;
  expired?: boolean;
}) {
  const registering = initialType === 'sms';
  const [tab, setTab] = useState<Tab>(registering ? 'sms' : 'password');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [countdown, setCountdown] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setMineInfo = useSetAtom(mineInfoAtom);

  useEffect(() => {
    if (expired) pushToast('error', messages.loginExpired);
  }, [expired]);

  useEffect(() => {
    if (countdown <= 0) return;
    const t = setTimeout(() => setCountdown(countdown - 1), 1000);
    return () => clearTimeout(t);
  }, [countdown]);

  async function sendCode() {
    const p = phoneSchema.safeParse(phone);
    if (!p.success) return setError(p.error.issues[0]?.message ?? messages.phoneInvalid);
    setError(null);
    setCountdown(RESEND_SECONDS);
    const ok = await api.call('User.GetCode', { phone: p.data });
    if (ok === false) setCountdown(0);
    else pushToast('success', messages.codeSent);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const p = phoneSchema.safeParse(phone);
    if (!p.success) return setError(p.error.issues[0]?.message ?? messages.phoneInvalid);
    const secret = tab === 'sms' ? smsCodeSchema.safeParse(code) : loginPasswordSchema.safeParse(password);
    if (!secret.success) return setError(secret.error.issues[0]?.message ?? messages.invalidParams);
    if (!agreed) return setError('请先阅读并同意《用户协议》和《隐私政策》');
    setError(null);
    setBusy(true);
    const answer = (await (tab === 'sms'
      ? api.call<LoginAnswer>('User.LoginRegister', { phone: p.data, code: secret.data })
      : api.call<LoginAnswer>('User.Login', { phone: p.data, password: secret.data }))) as LoginAnswer | false;
    if (answer === false) return setBusy(false);
    if (answer.state === 2) {
      setBusy(false);
      pushToast('error', messages.accountUnavailable);
      return;
    }
    api.clearCache();
    setMineInfo(answer.mineInfo);
    pushToast('success', answer.isNew ? '注册成功，欢迎加入' : '登录成功');
    window.location.assign(safeRedirect(redirect));
  }

  const tabClass = (t: Tab) =>
    `flex-1 border-b-2 pb-3 text-center text-base font-medium transition-colors ${
      tab === t ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-700'
    }`;

  return (
    <form onSubmit={submit} noValidate className="card w-full max-w-md p-6 md:p-8" data-testid="login-form">
      <h1 className="mb-6 text-2xl font-bold text-ink">{registering ? '注册账号' : '欢迎登录'}</h1>
      <div className="mb-6 flex gap-6" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'password'}
          className={tabClass('password')}
          onClick={() => setTab('password')}
        >
          密码登录
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'sms'}
          className={tabClass('sms')}
          onClick={() => setTab('sms')}
        >
          {registering ? '手机号注册' : '验证码登录'}
        </button>
      </div>
      <label className="mb-4 block">
        <span className="mb-1.5 block text-sm text-slate-600">手机号</span>
        <input
          className="input"
          name="phone"
          inputMode="numeric"
          autoComplete="tel"
          maxLength={11}
          placeholder="请输入11位手机号"
          value={phone}
          onChange={(e) => setPhone(e.target.value.replace(/\D/g, ''))}
        />
      </label>
      {tab === 'sms' ? (
        <label className="mb-4 block">
          <span className="mb-1.5 block text-sm text-slate-600">验证码</span>
          <div className="flex gap-3">
            <input
              className="input"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="6位短信验证码"
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
            <button type="button" className="btn-outline w-32 shrink-0" onClick={sendCode} disabled={countdown > 0}>
              {countdown > 0 ? `${countdown}秒后重发` : '获取验证码'}
            </button>
          </div>
        </label>
      ) : (
        <label className="mb-4 block">
          <span className="mb-1.5 flex justify-between text-sm text-slate-600">
            密码
            <button type="button" className="text-brand-600 hover:underline" onClick={() => setTab('sms')}>
              忘记密码？用验证码登录
            </button>
          </span>
          <input
            className="input"
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder="请输入密码"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
      )}
      <label className="mb-4 flex items-start gap-2 text-sm text-slate-600">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-brand-600"
          checked={agreed}
          onChange={(e) => setAgreed(e.target.checked)}
          name="agree"
        />
        <span>
          我已阅读并同意
          <a href="/userAgreement" target="_blank" className="text-brand-600 hover:underline" rel="noopener">
            《用户协议》
          </a>
          和
          <a href="/privacyPolicy" target="_blank" className="text-brand-600 hover:underline" rel="noopener">
            《隐私政策》
          </a>
        </span>
      </label>
      <p role="alert" className="mb-3 min-h-5 text-sm text-rose-600" data-testid="form-error">
        {error}
      </p>
      <button type="submit" className="btn-primary w-full py-3 text-base" disabled={busy}>
        {tab === 'sms' ? (registering ? '注册并登录' : '登录 / 注册') : '登录'}
      </button>
      <p className="mt-5 text-center text-sm text-slate-500">
        {registering ? (
          <>
            已有账号？
            <a href="/login" className="text-brand-600 hover:underline">
              立即登录
            </a>
          </>
        ) : (
          <>
            还没有账号？
            <a href="/login?type=sms" className="text-brand-600 hover:underline">
              免费注册
            </a>
          </>
        )}
      </p>
    </form>
  );
}
