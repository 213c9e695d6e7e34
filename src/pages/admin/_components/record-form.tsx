'use client';
// The console's one form for one action: fields described by the screen (text, lines, integers, money in yuan sent as
// integer fen, choices, check boxes, Asia/Shanghai date-times sent as epoch ms or as the wall-time text), fixed
// parameters; the write goes through the console's write hook (toast, reload), then the form may clear itself and hand
// the answer on. The server validates everything again; the form only converts units.
import { type FormEvent, type ReactNode, useId } from 'react';
import type { ActionInput, ActionName, ActionOutput } from '../../../lib/api-core';
import { yuanToFen } from '../../../lib/format';
import { pushToast } from '../../../state/toast';
import { shanghaiInput, shanghaiWallTime } from '../../../lib/time';
import { useConsoleWrite, type WriteDone } from './console-write';

interface Base {
  name: string;
  label: string;
  hint?: string;
  placeholder?: string;
  /** The browser asks for a value before sending. */
  required?: boolean;
  /** Classes of the field's box in the form's grid (e.g. `lg:col-span-2`). */
  className?: string;
}

export type FormField =
  | (Base & {
      kind: 'text';
      defaultValue?: string | undefined;
      maxLength?: number;
      /** A field the screen controls (e.g. filled by an upload): its value and change handler (client screens). */
      value?: string;
      onChange?: (value: string) => void;
    })
  | (Base & { kind: 'textarea'; defaultValue?: string | undefined })
  | (Base & { kind: 'lines'; defaultValue?: string[] | undefined })
  | (Base & { kind: 'int'; defaultValue?: number | undefined })
  | (Base & { kind: 'yuan'; defaultValue?: number | undefined })
  | (Base & {
      kind: 'select';
      options: { value: number | string; label: string }[];
      defaultValue?: number | string | undefined;
    })
  | (Base & { kind: 'checks'; options: { value: number; label: string }[]; defaultValue?: number[] | undefined })
  | (Base & { kind: 'bool'; defaultValue?: boolean | undefined; text?: string })
  | (Base & { kind: 'datetime'; defaultValue?: number | undefined; send?: 'ms' | 'text' })
  /** A 北京时间 day, sent as its YYYY-MM-DD text. */
  | (Base & { kind: 'date'; defaultValue?: string | undefined });

/** A select's options from [value, text] pairs. */
export const choices = <V extends number | string>(pairs: readonly (readonly [V, string])[]) =>
  pairs.map(([value, label]) => ({ value, label }));

// Yuan text to integer fen: the one converter lives in src/lib/format.ts (the customer's forms use it too).
export { yuanToFen };

function read(f: FormField, data: FormData): unknown {
  const raw = data.get(f.name);
  switch (f.kind) {
    case 'text':
    case 'textarea':
    case 'date':
      return String(raw ?? '');
    case 'lines':
      return String(raw ?? '')
        .split(/[\s,，]+/)
        .filter(Boolean);
    case 'int':
      return String(raw ?? '').trim() === '' ? Number.NaN : Number(raw);
    case 'yuan':
      return yuanToFen(String(raw ?? ''));
    case 'select': {
      const v = String(raw ?? '');
      return typeof f.options[0]?.value === 'number' ? Number(v) : v;
    }
    case 'checks':
      return data.getAll(f.name).map(Number);
    case 'bool':
      return raw === 'on';
    case 'datetime': {
      const v = String(raw ?? '');
      if (f.send === 'text') return v;
      return v ? shanghaiWallTime(v) : Number.NaN;
    }
  }
}

export interface RecordFormProps<N extends ActionName = ActionName> {
  action: N;
  fields: FormField[];
  fixed?: Record<string, unknown>;
  submitLabel: string;
  /** The success toast, or (client screens) how to word it from the answer (WriteDone). */
  done: WriteDone<N>;
  testId?: string;
  /** Clear the form after success (creation forms). */
  reset?: boolean;
  /** At most two columns (forms inside half-width cards). */
  narrow?: boolean;
  /** The grid's classes, when the screen lays the fields out itself. */
  className?: string;
  /** Shown above the fields (e.g. an upload). */
  children?: ReactNode;
  /** The submit button is disabled (e.g. while an upload runs). */
  disabled?: boolean | undefined;
  /** Client screens: what to do with the answer after success (e.g. show a secret once). */
  after?: (res: ActionOutput<N>) => void;
  /** Shown after the fields, across the whole form (e.g. a rich-text body the screen holds itself). */
  below?: ReactNode;
  /** Shown beside the submit button (e.g. a link back to the list). */
  actions?: ReactNode;
  /** The submit button's test id. */
  submitTestId?: string;
}

export function RecordForm<N extends ActionName>({
  action,
  fields,
  fixed = {},
  submitLabel,
  done,
  testId,
  reset,
  narrow,
  className,
  children,
  disabled,
  after,
  below,
  actions,
  submitTestId,
}: RecordFormProps<N>) {
  const { busy, run } = useConsoleWrite();
  const uid = useId();
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const form = e.currentTarget;
    const data = new FormData(form);
    const params: Record<string, unknown> = { ...fixed };
    for (const f of fields) {
      const v = read(f, data);
      if (f.kind === 'yuan' && v === null) {
        pushToast('error', `${f.label}：请填写金额（元，最多两位小数）`);
        return;
      }
      params[f.name] = v;
    }
    // The fields and fixed parameters make the action's input; the server validates the whole of it.
    const res = await run(action, params as ActionInput<N>, done);
    if (res === false) return;
    if (reset) form.reset();
    after?.(res);
  }
  return (
    <form
      onSubmit={submit}
      className={className ?? `grid gap-3 sm:grid-cols-2 ${narrow ? '' : 'lg:grid-cols-4'}`}
      data-testid={testId}
    >
      {children}
      {fields.map((f) => {
        const id = `${uid}-${f.name}`;
        const wide =
          f.className ?? (f.kind === 'textarea' || f.kind === 'lines' || f.kind === 'checks' ? 'sm:col-span-2' : '');
        if (f.kind === 'checks') {
          return (
            <fieldset key={f.name} className={wide}>
              <legend className="mb-1 block text-xs text-slate-600">{f.label}</legend>
              <span className="flex flex-wrap gap-3 py-2">
                {f.options.map((o) => (
                  <label key={o.value} className="inline-flex items-center gap-1 text-sm">
                    <input
                      type="checkbox"
                      name={f.name}
                      value={o.value}
                      defaultChecked={f.defaultValue?.includes(o.value)}
                    />
                    {o.label}
                  </label>
                ))}
              </span>
            </fieldset>
          );
        }
        // What every text-like control carries.
        const common = { id, name: f.name, placeholder: f.placeholder, required: f.required };
        return (
          <div key={f.name} className={wide}>
            <label htmlFor={id} className="mb-1 block text-xs text-slate-600">
              {f.label}
            </label>
            {f.kind === 'text' && (
              <input
                {...common}
                className="input"
                {...(f.onChange
                  ? { value: f.value ?? '', onChange: (e) => f.onChange?.(e.target.value) }
                  : { defaultValue: f.defaultValue ?? '' })}
                maxLength={f.maxLength}
              />
            )}
            {f.kind === 'textarea' && (
              <textarea {...common} className="input min-h-20" defaultValue={f.defaultValue ?? ''} />
            )}
            {f.kind === 'lines' && (
              <textarea
                {...common}
                className="input min-h-20 font-mono text-xs"
                defaultValue={(f.defaultValue ?? []).join('\n')}
              />
            )}
            {f.kind === 'int' && (
              <input {...common} className="input" inputMode="numeric" defaultValue={f.defaultValue ?? ''} />
            )}
            {f.kind === 'yuan' && (
              <input
                {...common}
                className="input"
                inputMode="decimal"
                placeholder={f.placeholder ?? '元'}
                defaultValue={f.defaultValue === undefined ? '' : (f.defaultValue / 100).toFixed(2)}
              />
            )}
            {f.kind === 'select' && (
              <select id={id} name={f.name} className="input" defaultValue={f.defaultValue ?? f.options[0]?.value}>
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
            {f.kind === 'bool' && (
              <span className="flex items-center gap-2 py-2 text-sm">
                <input id={id} type="checkbox" name={f.name} defaultChecked={f.defaultValue} />
                {f.text ?? '是'}
              </span>
            )}
            {f.kind === 'datetime' && (
              <input
                id={id}
                type="datetime-local"
                name={f.name}
                className="input"
                defaultValue={f.defaultValue === undefined ? '' : shanghaiInput(f.defaultValue)}
              />
            )}
            {f.kind === 'date' && (
              <input {...common} type="date" className="input" defaultValue={f.defaultValue ?? ''} />
            )}
            {f.hint ? <span className="mt-0.5 block text-xs text-slate-400">{f.hint}</span> : null}
          </div>
        );
      })}
      {below ? <div className="sm:col-span-full">{below}</div> : null}
      <div className={`flex items-end gap-2 ${actions ? 'flex-wrap sm:col-span-full' : ''}`}>
        <button
          type="submit"
          className="btn-primary w-full sm:w-auto"
          disabled={busy || disabled}
          data-testid={submitTestId}
        >
          {busy ? '处理中…' : submitLabel}
        </button>
        {actions}
      </div>
    </form>
  );
}
