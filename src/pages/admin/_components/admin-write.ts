'use client';
// One console write from a client leaf: run the action, toast success, reload the screen. Errors are toasted by the
// console client (admin-api.ts); the hook reports busy so buttons can be disabled while the call runs.
import { type FormEvent, useState } from 'react';
import { useRouter } from 'waku/router/client';
import type { ActionInput, ActionName, ActionOutput } from '../../../lib/api-core';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';

export function useAdminWrite() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function run<N extends ActionName>(
    action: N,
    params: ActionInput<N>,
    /** The success toast, or how to word it from the answer. */
    done: string | ((res: ActionOutput<N>) => string),
  ): Promise<ActionOutput<N> | false> {
    if (busy) return false;
    setBusy(true);
    try {
      // run's own signature ties params and result to N; the client's argument tuple cannot be resolved for a generic
      // N, so the call goes through the client's untyped form.
      const call = adminApi.call as (a: ActionName, p: unknown) => Promise<ActionOutput<N> | false>;
      const res = await call(action, params);
      if (res === false) return false;
      pushToast('success', typeof done === 'string' ? done : done(res));
      await router.reload();
      return res;
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}

/**
 * A create form's submit: read the form into the action's input, run it (toast, reload), clear the form on success and
 * hand the answer to `after` (e.g. to show a secret once).
 */
export function useFormWrite<N extends ActionName>(
  action: N,
  input: (f: FormData) => ActionInput<N>,
  done: string | ((res: ActionOutput<N>) => string),
  after?: (res: ActionOutput<N>) => void,
) {
  const { busy, run } = useAdminWrite();
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const res = await run(action, input(new FormData(form)), done);
    if (res === false) return;
    form.reset();
    after?.(res);
  }
  return { busy, submit };
}

/** A form field's string value. */
export const field = (f: FormData, name: string): string => String(f.get(name) ?? '');

/** The form value when it is one of `options`, else the first option (the server validates either way). */
export function choice<const T extends readonly string[]>(value: string, options: T): T[number] {
  return (options as readonly string[]).includes(value) ? (value as T[number]) : (options[0] as T[number]);
}
