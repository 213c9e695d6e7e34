// Display formatting: phone masking, money (integer fen) and dates in Asia/Shanghai. The only formatters in the app.

/** 13812341234 -> 138****1234 (first 3, four stars, last 4). */
export function maskPhone(phone: string): string {
  if (phone.length < 7) return phone;
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}

/** Integer fen -> "¥12.30" (or "12.30" without the sign). */
export function formatFen(fen: number, withSign = true): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return `${sign}${withSign ? '¥' : ''}${text}`;
}

const dateTimeFmt = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

function parts(ms: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of dateTimeFmt.formatToParts(new Date(ms))) out[p.type] = p.value;
  return out;
}

/** Epoch ms -> "2026-11-22 08:30:00" in Asia/Shanghai. */
export function formatDateTime(ms: number): string {
  const p = parts(ms);
  return `${p.year}-${p.month}-${p.day} ${p.hour === '24' ? '00' : p.hour}:${p.minute}:${p.second}`;
}

/** Epoch ms -> "2026-11-22" in Asia/Shanghai. */
export function formatDate(ms: number): string {
  const p = parts(ms);
  return `${p.year}-${p.month}-${p.day}`;
}
