// White-list address rules: IPv4/IPv6 validation and one canonical text per address, so the white list, the caller's
// cf-connecting-ip and the nodes compare equal strings.

/** Most white-list entries one user may hold. */
export const WHITE_LIST_CAP = 20;

function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p.startsWith('0'))) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | null {
  let text = s.toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes('%') || !/^[0-9a-f:.]+$/.test(text)) return null;
  let tail: number[] = [];
  // An embedded IPv4 tail (::ffff:192.0.2.1) counts as two groups.
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0)];
    text = text.slice(0, lastColon + 1);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const group = (h: string) => (h === '' ? [] : h.split(':'));
  const head = group(halves[0] ?? '');
  const rest = halves.length === 2 ? group(halves[1] ?? '') : [];
  const words: number[] = [];
  for (const g of [...head, ...rest]) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    words.push(Number.parseInt(g, 16));
  }
  const total = words.length + tail.length;
  if (halves.length === 2) {
    if (total > 7) return null;
    const zeros = new Array<number>(8 - total).fill(0);
    return [...head.map((g) => Number.parseInt(g, 16)), ...zeros, ...rest.map((g) => Number.parseInt(g, 16)), ...tail];
  }
  return total === 8 ? [...words, ...tail] : null;
}

/** RFC 5952 text: lowercase, no leading zeros, the longest run (>= 2) of zero groups as ::. */
function formatIPv6(words: number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** The canonical text of an IPv4 or IPv6 address, or null when the text is not one. */
export function normalizeIp(input: string): string | null {
  const s = input.trim();
  if (s.length === 0 || s.length > 64) return null;
  const v4 = parseIPv4(s);
  if (v4) return v4.join('.');
  const v6 = parseIPv6(s);
  if (!v6) return null;
  // IPv4-mapped addresses are the IPv4 caller they stand for.
  if (v6.slice(0, 5).every((w) => w === 0) && v6[5] === 0xffff) {
    const a = v6[6] ?? 0;
    const b = v6[7] ?? 0;
    return [a >> 8, a & 255, b >> 8, b & 255].join('.');
  }
  return formatIPv6(v6);
}
