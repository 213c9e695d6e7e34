'use client';
// Company authentication: upload the licence image (raw bytes to the upload route), then Company.Add.
import { useState } from 'react';
import { isApiError } from '../../../../lib/api-core';
import { messages } from '../../../../lib/messages';
import { companyNameSchema, creditCodeSchema, legalPersonSchema } from '../../../../lib/schemas/account';
import { api } from '../../../../state/api';
import { COMPANY_STATE } from '../../../../lib/company-states';

const MAX = 5 * 1024 * 1024;

export function CompanyAuthForm({ state }: { state: number }) {
  const [licence, setLicence] = useState<{ id: number; name: string } | null>(null);
  const [form, setForm] = useState({ companyName: '', creditCode: '', legalPerson: '', remark: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState(state === COMPANY_STATE.pending);

  if (submitted) {
    return (
      <div className="py-10 text-center" data-testid="company-submitted">
        <p className="text-lg font-semibold text-ink">企业认证审核中</p>
        <p className="mt-1 text-sm text-slate-500">我们将在1-3个工作日内完成审核，结果将在实名认证页面显示</p>
      </div>
    );
  }
  if (state === COMPANY_STATE.approved) return <p className="py-10 text-center text-emerald-700">已完成企业认证</p>;

  async function upload(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX) return setError(messages.licenceTooLarge);
    setError('');
    setBusy(true);
    try {
      const res = await fetch('/api/upload/company-licence', {
        method: 'POST',
        body: file,
        credentials: 'same-origin',
      });
      const body = (await res.json()) as { P?: { id: number }; E?: string };
      if (body.P) setLicence({ id: body.P.id, name: file.name });
      else setError(body.E ?? messages.licenceNotImage);
    } catch {
      setError(messages.network);
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    for (const [schema, value] of [
      [companyNameSchema, form.companyName],
      [creditCodeSchema, form.creditCode],
      [legalPersonSchema, form.legalPerson],
    ] as const) {
      const r = schema.safeParse(value);
      if (!r.success) return setError(r.error.issues[0]?.message ?? '');
    }
    if (!licence) return setError(messages.licenceMissing);
    setBusy(true);
    const r = await api.call('Company.Add', { ...form, licenceId: licence.id }, { raw: true, silent: true });
    setBusy(false);
    if (isApiError(r)) setError(r.E);
    else if (r) setSubmitted(true);
  }

  const field = (key: keyof typeof form, label: string, placeholder: string) => (
    <label className="block text-sm">
      <span className="mb-1 block text-slate-600">{label}</span>
      <input
        className="input"
        value={form[key]}
        placeholder={placeholder}
        onChange={(e) => setForm({ ...form, [key]: e.target.value })}
      />
    </label>
  );

  return (
    <form onSubmit={submit} className="mx-auto max-w-md space-y-4 py-4" noValidate>
      {state === COMPANY_STATE.rejected && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">上次申请未通过，请核对资料后重新提交</p>
      )}
      {field('companyName', '企业名称', '与营业执照一致')}
      {field('creditCode', '统一社会信用代码', '18位')}
      {field('legalPerson', '法定代表人', '姓名')}
      <div className="text-sm">
        <span className="mb-1 block text-slate-600">营业执照</span>
        <label className="flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed border-slate-300 px-4 py-6 text-slate-500 hover:border-brand-400">
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            onChange={(e) => upload(e.target.files?.[0])}
            data-testid="licence-input"
          />
          {licence ? (
            <span className="text-emerald-700">已上传：{licence.name}</span>
          ) : (
            <span>点击上传 JPG / PNG / WEBP，不超过5MB</span>
          )}
        </label>
      </div>
      {field('remark', '备注（选填）', '给审核人员的说明')}
      {error && (
        <p className="text-sm text-red-600" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        提交审核
      </button>
    </form>
  );
}
