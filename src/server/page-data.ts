// The one loader for server components: an action through the request's API client (the same typed client as the
// browser's), with the seed's convention that a failed load falls back silently (E, failure, an unknown action).
import type { ActionInput, ActionName, ActionOutput } from '../lib/api-core';
import { serverApi } from './api-server';

/** Call an action for a page; `fallback` when it answers E, fails or throws. */
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
