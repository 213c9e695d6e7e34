// The device fingerprint (seed: computed on the client, stored as fingerPrint in local storage): a SHA-256 over stable
// browser traits and a small canvas drawing, hex-encoded (first 32 characters). Browser only.

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function canvasTrait(): string {
  try {
    const c = document.createElement('canvas');
    c.width = 200;
    c.height = 40;
    const ctx = c.getContext('2d');
    if (!ctx) return '';
    ctx.textBaseline = 'top';
    ctx.font = '16px sans-serif';
    ctx.fillStyle = '#1d54f5';
    ctx.fillRect(0, 0, 120, 20);
    ctx.fillStyle = '#f60';
    ctx.fillText('云枢代理 fp 1.0', 4, 12);
    return c.toDataURL().slice(-64);
  } catch {
    return '';
  }
}

/** Compute the fingerprint of this browser. */
export async function computeFingerprint(): Promise<string> {
  const n = navigator;
  const traits = [
    n.userAgent,
    n.language,
    (n.languages ?? []).join(','),
    n.hardwareConcurrency ?? '',
    screen.width,
    screen.height,
    screen.colorDepth,
    window.devicePixelRatio,
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    new Date().getTimezoneOffset(),
    n.maxTouchPoints ?? 0,
    canvasTrait(),
  ];
  return (await sha256Hex(traits.join('|'))).slice(0, 32);
}
