'use client';
// The console's form pieces (client leaves): a submit handler that reads the form, the save/new button, a labelled
// checkbox, the sort field and the start/end window fields (Asia/Shanghai wall time) that the content forms share.
import type { FormEvent } from 'react';
import { shanghaiInput } from './admin-write';

const DAY = 86_400_000;

/** A form's onSubmit: stops the page load and hands the form's values (and the form) to `fn`. */
export const onForm =
  (fn: (f: FormData, form: HTMLFormElement) => unknown) =>
  (e: FormEvent<HTMLFormElement>): void => {
    e.preventDefault();
    void fn(new FormData(e.currentTarget), e.currentTarget);
  };

/** "保存" when editing a row, else `create` ("新建"). */
export function SubmitButton({
  busy,
  editing,
  create = '新建',
  className = 'btn-primary',
}: {
  busy: boolean;
  editing: boolean;
  create?: string;
  className?: string;
}) {
  return (
    <button type="submit" className={className} disabled={busy}>
      {editing ? '保存' : create}
    </button>
  );
}

/** A checkbox with its text; `on` is its state when the form creates a row. */
export function Check({ name, label, checked }: { name: string; label: string; checked: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      <input type="checkbox" name={name} defaultChecked={checked} /> {label}
    </label>
  );
}

/** The "启用" checkbox: on for a new row, else the row's own state. */
export const EnabledCheck = ({ row }: { row?: { enabled: number } | undefined }) => (
  <Check name="enabled" label="启用" checked={row ? row.enabled === 1 : true} />
);

/** The sort field (0-9999). */
export function SortInput({ value, className = 'input' }: { value: number | undefined; className?: string }) {
  return (
    <input
      name="sort"
      type="number"
      min={0}
      max={9999}
      className={className}
      aria-label="排序"
      placeholder="排序"
      defaultValue={value ?? 0}
    />
  );
}

/** The form's sort value as a number (the server validates the range). */
export const sortValue = (f: FormData): number => Number(String(f.get('sort') ?? '') || 0);

/** Start and end (datetime-local, Shanghai time); a new row runs from now for 30 days. */
export function WindowFields({
  row,
  now,
  startLabel = '开始',
}: {
  row?: { startsAt: number; endsAt: number } | undefined;
  now: number;
  startLabel?: string;
}) {
  return (
    <>
      <label className="text-xs text-slate-500">
        {startLabel}
        <input
          name="startsAt"
          type="datetime-local"
          className="input"
          defaultValue={shanghaiInput(row?.startsAt ?? now)}
        />
      </label>
      <label className="text-xs text-slate-500">
        结束
        <input
          name="endsAt"
          type="datetime-local"
          className="input"
          defaultValue={shanghaiInput(row?.endsAt ?? now + 30 * DAY)}
        />
      </label>
    </>
  );
}
