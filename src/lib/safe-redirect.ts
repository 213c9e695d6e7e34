// Only same-site paths may be used as post-login destinations.

/** The redirect target if it is a same-site absolute path, else the fallback. */
export function safeRedirect(target: string | null | undefined, fallback = '/personalCenter'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f]/.test(target) || target.startsWith('/login')) return fallback;
  return target;
}
