'use client';
// One console write from a client leaf: run the action, toast success, reload the screen. Errors are toasted by the
// console client (admin-api.ts); the hook reports busy so buttons can be disabled while the call runs.
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import { pushToast } from '../../../state/toast';
import { adminApi } from './admin-api';

export function useAdminWrite() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function run(action: string, params: Record<string, unknown>, done: string): Promise<unknown> {
    if (busy) return false;
    setBusy(true);
    try {
      const res = await adminApi.call(action, params);
      if (res === false) return false;
      pushToast('success', done);
      await router.reload();
      return res;
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}

/** Epoch ms as the value of a datetime-local field in Asia/Shanghai ("2026-11-23T10:00"). */
export const shanghaiInput = (ms: number): string => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16);

/** A form field's string value. */
export const field = (f: FormData, name: string): string => String(f.get(name) ?? '');
