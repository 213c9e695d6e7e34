// Only same-site paths may be used as post-login destinations: one leading slash, never followed by a slash or a
// backslash, even percent-encoded; no backslash, whitespace or control character anywhere (browsers strip or turn
// them into slashes, so /\host and /%09/host lead off-site).

const decodedOnce = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return '//'; // not valid percent-encoding: refused below
  }
};

/** True when a text holds a control character (C0 or DEL), which browsers strip from URLs. */
export const hasControlChar = (s: string): boolean =>
  [...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/** The redirect target if it is a same-site absolute path, else the fallback. */
export function safeRedirect(target: string | null | undefined, fallback = '/personalCenter'): string {
  if (!target?.startsWith('/')) return fallback;
  const decoded = decodedOnce(decodedOnce(target));
  if (/[\s]/.test(target)) return fallback;
  for (const form of [target, decoded]) {
    if (/^\/[\\/]/.test(form) || form.includes('\\') || hasControlChar(form)) return fallback;
  }
  if (target.startsWith('/login')) return fallback;
  return target;
}
