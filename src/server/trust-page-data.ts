// Server-component data loading for the trust pages: one call through the request's API client; a failed load falls
// back silently to the given value (seed section 7).
import { serverApi } from './api-server';

/** Call an action for a page; the fallback when the call answers E or fails. */
export async function loadTrust<T>(action: string, params: unknown, fallback: T): Promise<T> {
  const res = await (await serverApi()).call<T>(action, params, { silent: true });
  return res === false || res === null || res === undefined ? fallback : (res as T);
}
