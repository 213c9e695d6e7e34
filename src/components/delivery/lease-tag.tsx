// The lease left on an IP, beside its expiry time (server-rendered at request time): green while the node still
// accepts the IP for this account, grey once it has ended.
import { leaseLeft } from '../../lib/lease';

export function LeaseTag({ expiresAt }: { expiresAt: number }) {
  const { text, live } = leaseLeft(expiresAt, Date.now());
  return (
    <span
      className={`ml-2 rounded px-1.5 py-0.5 text-xs ${live ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-500'}`}
      data-testid="lease-left"
    >
      {text}
    </span>
  );
}
