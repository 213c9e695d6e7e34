'use client';
// Personal verification: name + ID number -> Auth.CertifyInit -> the face page; back here with certifyId ->
// Auth.CertifyResult (the server asks the provider). Errors show inline.
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { isApiError } from '../../../../lib/api-core';
import { idNumberSchema, realNameSchema } from '../../../../lib/schemas/account';
import { api } from '../../../../state/api';
import { mineInfoAtom } from '../../../../state/session';

type Check =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'passed'; idNumber: string }
  | { state: 'failed'; text: string };

/** `next`: a same-site path to continue to after verification (the buy page with the chosen package). */
export function PersonalAuthForm({ certifyId, next = '' }: { certifyId: string | null; next?: string }) {
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState<Check>(certifyId ? { state: 'checking' } : { state: 'idle' });
  const setInfo = useSetAtom(mineInfoAtom);

  useEffect(() => {
    if (!certifyId) return;
    void api.call('Auth.CertifyResult', { certifyId }, { raw: true, silent: true }).then(async (r) => {
      if (r && !isApiError(r) && r.passed) {
        setCheck({ state: 'passed', idNumber: r.idNumber });
        const fresh = await api.call('User.GetMineInfo', {}, { silent: true });
        if (fresh) setInfo(fresh);
      } else {
        setCheck({ state: 'failed', text: isApiError(r) ? r.E : '认证未通过' });
      }
    });
  }, [certifyId, setInfo]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const n = realNameSchema.safeParse(name);
    const i = idNumberSchema.safeParse(idNumber);
    if (!n.success) return setError(n.error.issues[0]?.message ?? '');
    if (!i.success) return setError(i.error.issues[0]?.message ?? '');
    setError('');
    setBusy(true);
    const r = await api.call(
      'Auth.CertifyInit',
      { name: n.data, idNumber: i.data, ...(next ? { next } : {}) },
      { raw: true, silent: true },
    );
    setBusy(false);
    if (r && !isApiError(r)) window.location.assign(r.certifyUrl);
    else setError(isApiError(r) ? r.E : '发起认证失败，请稍后再试');
  }

  if (check.state === 'checking') return <p className="py-10 text-center text-slate-500">正在查询认证结果…</p>;
  if (check.state === 'passed') {
    return (
      <div className="py-8 text-center" data-testid="certify-passed">
        <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-2xl text-emerald-600">
          ✓
        </div>
        <p className="mt-4 text-lg font-semibold text-ink">个人已认证</p>
        <p className="mt-1 text-sm text-slate-500">身份证号 {check.idNumber}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {next && (
            <a href={next} className="btn-primary" data-testid="continue-buying">
              继续购买
            </a>
          )}
          <a href="/personalCenter/realNameAuth" className={next ? 'btn-outline' : 'btn-primary'}>
            领取实名福利
          </a>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="mx-auto max-w-md space-y-4 py-4" noValidate>
      {check.state === 'failed' && (
        <p className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700" role="alert">
          {check.text}
        </p>
      )}
      <label className="block text-sm">
        <span className="mb-1 block text-slate-600">真实姓名</span>
        <input
          className="input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="与身份证一致"
          autoComplete="name"
        />
      </label>
      <label className="block text-sm">
        <span className="mb-1 block text-slate-600">身份证号</span>
        <input
          className="input font-mono"
          value={idNumber}
          onChange={(e) => setIdNumber(e.target.value)}
          placeholder="18位居民身份证号"
          maxLength={18}
        />
      </label>
      {error && (
        <p className="text-sm text-red-600" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={busy} data-testid="certify-submit">
        下一步：刷脸认证
      </button>
      <p className="text-xs text-slate-400">信息经加密传输与存储，仅用于实名核验；一个身份证只能认证一个账号。</p>
    </form>
  );
}
