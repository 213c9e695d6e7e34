// /personalCenter/getAgent/whiteList: the IPs allowed to extract and to use the proxies.
import { PageHead } from '../../../components/delivery/pc-pages';
import { loadFor } from '../../../server/delivery-page-data';
import { type WhiteEntry, WhiteListManager } from './_components/white-list-manager';

export default async function WhiteListPage() {
  const [data, curr] = await Promise.all([
    loadFor<{ cap: number; list: WhiteEntry[] }>('ProxyWhiteList.GetWhiteList', {}, { cap: 20, list: [] }),
    loadFor<{ ip: string }>('ProxyWhiteList.currIp', {}, { ip: '' }),
  ]);
  return (
    <div className="space-y-5" data-testid="white-list-page">
      <PageHead trail={['个人中心', '获取代理', '白名单']} title="白名单" />
      <WhiteListManager initial={data.list} cap={data.cap} currIp={curr.ip} />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
