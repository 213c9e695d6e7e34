// The cells every list of delivered IPs shows the same way: the address (the card's title on phones) and the expiry
// with the lease left.
import { formatDateTime } from '../../lib/format';
import { Cell } from '../data-table';
import { LeaseTag } from './lease-tag';

export function IpPortCell({ ip, port }: { ip: string; port: number }) {
  return (
    <Cell kind="title" className="py-2 font-mono text-xs max-md:text-sm max-md:font-medium max-md:text-ink">
      {ip}:{port}
    </Cell>
  );
}

export function ExpiryCell({ expiresAt }: { expiresAt: number }) {
  return (
    <Cell label="到期时间" className="whitespace-nowrap">
      {formatDateTime(expiresAt)}
      <LeaseTag expiresAt={expiresAt} />
    </Cell>
  );
}
