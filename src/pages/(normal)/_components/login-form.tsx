'use client';
// Login and registration: password or SMS code (?type=sms opens registration). Validation uses the same schemas as
// the server. Every error, the client's and the server's, is shown under the field it concerns (aria-invalid and
// aria-describedby), and the first invalid field gets the focus. The post-login destination (?redirect=, same-site
// paths only) is kept across the switch between login and registration.
import { useSetAtom } from 'jotai';
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type ApiError, isApiError } from '../../../lib/api-core';
import { messages } from '../../../lib/messages';
import { safeRedirect } from '../../../lib/safe-redirect';
import { loginPasswordSchema, phoneSchema, smsCodeSchema } from '../../../lib/schemas/account';
import { api } from '../../../state/api';
import { mineInfoAtom } from '../../../state/session';
import { pushToast } from '../../../state/toast';

type Tab = 'password' | 'sms';
type Field = 'phone' | 'secret' | 'agree';
type FieldErrors = Partial<Record<Field, string>>;

const RESEND_SECONDS = 60;
const digits = (e: ChangeEvent<HTMLInputElement>) => e.target.value.replace(/\D/g, '');
const DEFAULT_TARGET = '/personalCenter';

/** The login or registration page that keeps the post-login destination. */
export function loginHref(register: boolean, redirect: string): string {
  const q = new URLSearchParams();
  if (register) q.set('type', 'sms');
  const target = safeRedirect(redirect);
  if (target !== DEFAULT_TARGET) q.set('redirect', target);
  const query = q.toString();
  return query ? `/login?${query}` : '/login';
}

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
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const setMineInfo = useSetAtom(mineInfoAtom);
  const uid = useId();
  const ids = { phone: `${uid}-phone`, secret: `${uid}-secret`, agree: `${uid}-agree` };
  const errorId = (f: Field) => `${ids[f]}-error`;
  const refs = {
    phone: useRef<HTMLInputElement>(null),
    secret: useRef<HTMLInputElement>(null),
    agree: useRef<HTMLInputElement>(null),
  };

  /** Show one field's error (and clear the others) and move the focus there. */
  function fail(field: Field, message: string) {
    setErrors({ [field]: message });
    refs[field].current?.focus();
  }
  /** Props that tie a field to its error message. */
  const invalidProps = (f: Field) =>
    errors[f] ? { 'aria-invalid': true as const, 'aria-describedby': errorId(f) } : { 'aria-invalid': false as const };
  const clear = (f: Field) => errors[f] && setErrors((cur) => ({ ...cur, [f]: undefined }));
  /** What every input of the form carries: its id and ref, the change that also clears its error, the error link. */
  const bind = (f: Field, change: (e: ChangeEvent<HTMLInputElement>) => void) => ({
    ref: refs[f],
    id: ids[f],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      change(e);
      clear(f);
    },
    ...invalidProps(f),
  });

  useEffect(() => {
    if (expired) pushToast('error', messages.loginExpired);
  }, [expired]);

  useEffect(() => {
    if (countdown <= 0) return;
    const t = setTimeout(() => setCountdown(countdown - 1), 1000);
    return () => clearTimeout(t);
  }, [countdown]);

  function switchTab(t: Tab) {
    setTab(t);
    setErrors({});
  }

  async function sendCode() {
    const p = phoneSchema.safeParse(phone);
    if (!p.success) return fail('phone', p.error.issues[0]?.message ?? messages.phoneInvalid);
    setErrors({});
    setCountdown(RESEND_SECONDS);
    const answer = await api.call('User.GetCode', { phone: p.data }, { raw: true, silent: true });
    if (answer === false || isApiError(answer)) {
      setCountdown(0);
      fail('secret', serverError(answer));
    } else pushToast('success', messages.codeSent);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const p = phoneSchema.safeParse(phone);
    if (!p.success) return fail('phone', p.error.issues[0]?.message ?? messages.phoneInvalid);
    const secret = tab === 'sms' ? smsCodeSchema.safeParse(code) : loginPasswordSchema.safeParse(password);
    if (!secret.success) return fail('secret', secret.error.issues[0]?.message ?? messages.invalidParams);
    if (!agreed) return fail('agree', '请先阅读并同意《用户协议》和《隐私政策》');
    setErrors({});
    setBusy(true);
    const options = { raw: true, silent: true } as const;
    const reply = await (tab === 'sms'
      ? api.call('User.LoginRegister', { phone: p.data, code: secret.data }, options)
      : api.call('User.Login', { phone: p.data, password: secret.data }, options));
    if (reply === false || isApiError(reply)) {
      setBusy(false);
      return fail('secret', serverError(reply));
    }
    const answer = reply;
    if (answer.state === 2) {
      setBusy(false);
      return fail('phone', messages.accountUnavailable);
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

  const fieldError = (f: Field) =>
    errors[f] ? (
      <p id={errorId(f)} className="mt-1.5 text-sm text-rose-600" data-testid={`${f}-error`}>
        {errors[f]}
      </p>
    ) : null;

  return (
    <form onSubmit={submit} noValidate className="card w-full max-w-md p-6 md:p-8" data-testid="login-form">
      <h1 className="mb-6 text-2xl font-bold text-ink">{registering ? '注册账号' : '欢迎登录'}</h1>
      <div className="mb-6 flex gap-6" role="tablist">
        {(
          [
            ['password', '密码登录'],
            ['sms', registering ? '手机号注册' : '验证码登录'],
          ] as const
        ).map(([t, label]) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={tabClass(t)}
            onClick={() => switchTab(t)}
          >
            {label}
          </button>
        ))}
      </div>
      {/* One live region announces whichever field error appears; each message also sits under its field. */}
      <p role="alert" className="sr-only">
        {errors.phone ?? errors.secret ?? errors.agree ?? ''}
      </p>
      <div className="mb-4">
        <label htmlFor={ids.phone} className="mb-1.5 block text-sm text-slate-600">
          手机号
        </label>
        <input
          className="input aria-invalid:border-rose-500"
          name="phone"
          inputMode="numeric"
          autoComplete="tel"
          maxLength={11}
          placeholder="请输入11位手机号"
          value={phone}
          {...bind('phone', (e) => setPhone(digits(e)))}
        />
        {fieldError('phone')}
      </div>
      {tab === 'sms' ? (
        <div className="mb-4">
          <label htmlFor={ids.secret} className="mb-1.5 block text-sm text-slate-600">
            验证码
          </label>
          <div className="flex gap-3">
            <input
              className="input aria-invalid:border-rose-500"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="6位短信验证码"
              value={code}
              {...bind('secret', (e) => setCode(digits(e)))}
            />
            <button type="button" className="btn-outline w-32 shrink-0" onClick={sendCode} disabled={countdown > 0}>
              {countdown > 0 ? `${countdown}秒后重发` : '获取验证码'}
            </button>
          </div>
          {fieldError('secret')}
        </div>
      ) : (
        <div className="mb-4">
          <div className="mb-1.5 flex items-center justify-between text-sm">
            <label htmlFor={ids.secret} className="text-slate-600">
              密码
            </label>
            <button type="button" className="text-brand-600 hover:underline" onClick={() => switchTab('sms')}>
              忘记密码？用验证码登录
            </button>
          </div>
          <input
            className="input aria-invalid:border-rose-500"
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder="请输入密码"
            value={password}
            {...bind('secret', (e) => setPassword(e.target.value))}
          />
          {fieldError('secret')}
        </div>
      )}
      <div className="mb-5">
        <div className="flex items-start gap-2 text-sm text-slate-600">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4 accent-brand-600"
            checked={agreed}
            name="agree"
            {...bind('agree', (e) => setAgreed(e.target.checked))}
          />
          <span>
            <label htmlFor={ids.agree}>我已阅读并同意</label>
            <a href="/userAgreement" target="_blank" className="text-brand-600 hover:underline" rel="noopener">
              《用户协议》
            </a>
            和
            <a href="/privacyPolicy" target="_blank" className="text-brand-600 hover:underline" rel="noopener">
              《隐私政策》
            </a>
          </span>
        </div>
        {fieldError('agree')}
      </div>
      <button type="submit" className="btn-primary w-full py-3 text-base" disabled={busy}>
        {tab === 'sms' ? (registering ? '注册并登录' : '登录 / 注册') : '登录'}
      </button>
      <p className="mt-5 text-center text-sm text-slate-500">
        {registering ? (
          <>
            已有账号？
            <a href={loginHref(false, redirect)} className="text-brand-600 hover:underline">
              立即登录
            </a>
          </>
        ) : (
          <>
            还没有账号？
            <a href={loginHref(true, redirect)} className="text-brand-600 hover:underline">
              免费注册
            </a>
          </>
        )}
      </p>
    </form>
  );
}

/** The text of a refused call: the server's E, or the network notice when no answer arrived. */
function serverError(answer: ApiError | false): string {
  return answer ? answer.E : messages.network;
}
