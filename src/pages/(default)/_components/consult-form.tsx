'use client';
// The enterprise consultation form: native constraints mirror the server schema (src/lib/consult.ts); the server's
// answer (Company.Consult) is authoritative and its Chinese message is shown inline.
import { useState } from 'react';
import { type ActionInput, isApiError } from '../../../lib/api-core';
import {
  CONSULT_LIMITS,
  CONSULT_PHONE_PATTERN,
  CONSULT_SCENARIOS,
  CONSULT_VOLUMES,
} from '../../../lib/consult-options';
import { api } from '../../../state/api';

const field = 'mt-1 input';

export function ConsultForm() {
  const [state, setState] = useState<{ kind: 'idle' | 'sending' | 'done' | 'error'; text?: string }>({ kind: 'idle' });
  if (state.kind === 'done')
    return (
      <div className="rounded-xl bg-emerald-50 p-6 text-emerald-900" role="status" data-testid="consult-done">
        <p className="font-semibold">提交成功</p>
        <p className="mt-1 text-sm">商务顾问将在1个工作日内与您联系，紧急需求请直接拨打商务热线。</p>
      </div>
    );
  return (
    <form
      className="grid gap-4 md:grid-cols-2"
      data-testid="consult-form"
      onSubmit={async (e) => {
        e.preventDefault();
        // The form's fields by name; the server validates them (its message is shown inline).
        const data = Object.fromEntries(new FormData(e.currentTarget)) as ActionInput<'Company.Consult'>;
        setState({ kind: 'sending' });
        const r = await api.call('Company.Consult', data, { raw: true, silent: true });
        if (r && !isApiError(r)) setState({ kind: 'done' });
        else setState({ kind: 'error', text: isApiError(r) ? r.E : '提交失败，请稍后再试' });
      }}
    >
      <label className="text-sm text-slate-700">
        企业名称 <span className="text-red-600">*</span>
        <input name="company" required minLength={2} maxLength={CONSULT_LIMITS.company} className={field} />
      </label>
      <label className="text-sm text-slate-700">
        联系人 <span className="text-red-600">*</span>
        <input name="contactName" required maxLength={CONSULT_LIMITS.contactName} className={field} />
      </label>
      <label className="text-sm text-slate-700">
        手机号 <span className="text-red-600">*</span>
        <input
          name="phone"
          required
          inputMode="numeric"
          pattern={CONSULT_PHONE_PATTERN}
          title="请输入正确的11位手机号"
          className={field}
        />
      </label>
      <label className="text-sm text-slate-700">
        邮箱
        <input name="email" type="email" maxLength={CONSULT_LIMITS.email} className={field} />
      </label>
      <RequiredChoice label="业务场景" name="scenario" options={CONSULT_SCENARIOS} />
      <RequiredChoice label="预计用量" name="monthlyVolume" options={CONSULT_VOLUMES} />
      <label className="text-sm text-slate-700 md:col-span-2">
        需求描述
        <textarea
          name="message"
          rows={4}
          maxLength={CONSULT_LIMITS.message}
          className={field}
          placeholder="地区、运营商、并发量、带宽等要求"
        />
      </label>
      {state.kind === 'error' && (
        <p role="alert" className="text-sm text-red-700 md:col-span-2">
          {state.text}
        </p>
      )}
      <div className="md:col-span-2">
        <button type="submit" className="btn-primary px-8 py-3" disabled={state.kind === 'sending'}>
          {state.kind === 'sending' ? '提交中…' : '提交咨询'}
        </button>
        <span className="ml-3 text-xs text-slate-600">提交即表示同意我们按《隐私政策》处理您的联系方式</span>
      </div>
    </form>
  );
}

/** A required select of the form, with nothing chosen at first. */
function RequiredChoice({ label, name, options }: { label: string; name: string; options: readonly string[] }) {
  return (
    <label className="text-sm text-slate-700">
      {label} <span className="text-red-600">*</span>
      <select name={name} required className={field} defaultValue="">
        <option value="" disabled>
          请选择
        </option>
        {options.map((s) => (
          <option key={s}>{s}</option>
        ))}
      </select>
    </label>
  );
}
