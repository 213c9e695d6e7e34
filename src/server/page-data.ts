// The one loader for server components: an action dispatched for the page request (src/server/api-server.ts: the
// request's client, its session read once per render), typed from the registry, falling back silently to the value
// the page gives when the action answers E, refuses the caller or fails. A page that must tell "refused" apart passes
// null and checks it (the console's NoAccess).
import type { ActionInput, ActionName, ActionOutput } from '../lib/api-core';
import { serverApi } from './api-server';

/** Call an action for a page; `fallback` when it answers E, fails or throws. */
export async function load<N extends ActionName>(
  action: N,
  input: ActionInput<N>,
  fallback: false,
): Promise<ActionOutput<N> | false>;
export async function load<N extends ActionName, F>(
  action: N,
  input: ActionInput<N>,
  fallback: F,
): Promise<ActionOutput<N> | F>;
export async function load<N extends ActionName, F>(
  action: N,
  input: ActionInput<N>,
  fallback: F,
): Promise<ActionOutput<N> | F> {
  try {
    const api = await serverApi();
    const res = (await api.call(action as ActionName, input as never, { silent: true })) as ActionOutput<N> | false;
    return res === false || res === null || res === undefined ? fallback : res;
  } catch {
    return fallback;
  }
}
