// Toasts: one queue, shown 3000 ms each (seed section 9). pushToast works outside React through the browser store.
import { atom } from 'jotai';
import { browserStore } from './store';

export const TOAST_MS = 3000;

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
}

export const toastsAtom = atom<Toast[]>([]);

let nextId = 1;

/** Show a toast for 3 s (browser only; a no-op during server rendering). */
export function pushToast(kind: Toast['kind'], text: string): void {
  const store = browserStore;
  if (!store) return;
  const id = nextId++;
  store.set(toastsAtom, (list) => [...list.slice(-3), { id, kind, text }]);
  setTimeout(() => store.set(toastsAtom, (list) => list.filter((t) => t.id !== id)), TOAST_MS);
}
