// The console's "edit this row, or create a new one" form over RecordForm (server component): an edit carries the
// row's id and asks for a reason (audited), a new row resets the form after saving. Used by campaigns and catalogue.
import type { ActionName } from '../../../lib/api-core';
import { type FormField, RecordForm } from './record-form';

/** The reason every edit asks for (kept in the audit log). */
export const EDIT_REASON: FormField = {
  name: 'reason',
  label: '修改原因（记入操作日志）',
  kind: 'text',
  maxLength: 200,
};

export function SaveForm<R extends { id: number }>({
  row,
  action,
  fields,
  fixed = {},
  labels,
  done,
  testId,
}: {
  /** The row being edited, or none for a new one. */
  row: R | null | undefined;
  action: ActionName;
  /** The fields, filled from the row when editing. */
  fields: (row?: R) => FormField[];
  /** Values sent with every save. */
  fixed?: Record<string, unknown>;
  /** The button's text: [editing, creating]. */
  labels: [string, string];
  /** The success toast: one text, or [edited, created]. */
  done: string | [string, string];
  testId: string;
}) {
  const pick = (pair: string | [string, string]) => (typeof pair === 'string' ? pair : row ? pair[0] : pair[1]);
  return (
    <RecordForm
      key={row?.id ?? 'new'}
      action={action}
      fields={row ? [...fields(row), EDIT_REASON] : fields()}
      fixed={row ? { id: row.id, ...fixed } : fixed}
      submitLabel={pick(labels)}
      done={pick(done)}
      testId={testId}
      reset={!row}
    />
  );
}
