// How much of an IP's lease is left (the node refuses the IP for this account once it ends): "剩余4分12秒",
// "剩余3天5小时", "已到期". Shown beside the expiry time on the IP pages.
export function leaseLeft(expiresAt: number, now: number): { text: string; live: boolean } {
  const s = Math.floor((expiresAt - now) / 1000);
  if (s <= 0) return { text: '已到期', live: false };
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return { text: `剩余${d}天${h}小时`, live: true };
  if (h > 0) return { text: `剩余${h}小时${m}分`, live: true };
  if (m > 0) return { text: `剩余${m}分${s % 60}秒`, live: true };
  return { text: `剩余${s}秒`, live: true };
}
