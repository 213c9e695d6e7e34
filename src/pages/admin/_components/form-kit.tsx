'use client';
// The pieces of the console's hand-built forms that remain (the help editor's): a submit handler that reads the form, the
// save/new button and the sort field. New forms are RecordForms (record-form.tsx).
import type { FormEvent } from 'react';

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
