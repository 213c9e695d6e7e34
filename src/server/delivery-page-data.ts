// Server-component data loading for the delivery pages: one call through the request's API client, with the
// seed's convention that a failed load falls back silently to an empty value.
import { serverApi } from './api-server';

/** Call an action for a page; the fallback when the call answers E or fails. */
export async function loadFor<T>(action: string, params: unknown, fallback: T): Promise<T> {
  const res = await (await serverApi()).call<T>(action, params, { silent: true });
  return res === false || res === null || res === undefined ? fallback : (res as T);
}
