'use client';
// One console write from a client leaf: run the action, toast success, reload the screen. Errors are toasted by the
// console client (admin-api.ts); the hook reports busy so buttons can be disabled while the call runs.
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import type { ActionInput, ActionName, ActionOutput } from '../../../lib/api-core';
import { pushToast } from '../../../state/toast';
import { consoleApi } from './console-api';

/**
 * What to say after a write answered: a success text, or how to word it from the answer. A write that answers without
 * doing what was asked (a preview that refuses) says so as an error from its answer (`{ refused }`).
 */
export type WriteDone<N extends ActionName> = string | ((res: ActionOutput<N>) => string | { refused: string });

export function useConsoleWrite() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function run<N extends ActionName>(
    action: N,
    params: ActionInput<N>,
    done: WriteDone<N>,
  ): Promise<ActionOutput<N> | false> {
    if (busy) return false;
    setBusy(true);
    try {
      // run's own signature ties params and result to N; the client's argument tuple cannot be resolved for a generic
      // N, so the call goes through the client's untyped form.
      const call = consoleApi.call as (a: ActionName, p: unknown) => Promise<ActionOutput<N> | false>;
      const res = await call(action, params);
      if (res === false) return false;
      const said = typeof done === 'string' ? done : done(res);
      if (typeof said === 'string') pushToast('success', said);
      else pushToast('error', said.refused);
      await router.reload();
      return res;
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}

/** A form field's string value. */
export const field = (f: FormData, name: string): string => String(f.get(name) ?? '');
