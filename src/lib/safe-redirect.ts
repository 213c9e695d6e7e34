// Only same-site paths may be used as post-login destinations.

/** The redirect target if it is a same-site absolute path, else the fallback. */
export function safeRedirect(target: string | null | undefined, fallback = '/personalCenter'): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return fallback;
  const hasControlChar = [...target].some((ch) => ch.charCodeAt(0) < 0x20);
  if (hasControlChar || target.startsWith('/login')) return fallback;
  return target;
}
