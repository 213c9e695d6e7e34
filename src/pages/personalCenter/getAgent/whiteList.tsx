// /personalCenter/getAgent/whiteList: the IPs allowed to extract and to use the proxies, and the connections the
// proxy nodes refused recently (with 「添加此IP」 for addresses not on the list).
import { PageHead } from '../../../components/page-head';
import { load } from '../../../server/page-data';
import { RefusalList } from './_components/refusal-list';
import { WhiteListManager } from './_components/white-list-manager';

export default async function WhiteListPage() {
  const [data, curr, refusals] = await Promise.all([
    load('ProxyWhiteList.GetWhiteList', {}, { cap: 20, list: [] }),
    load('ProxyWhiteList.currIp', {}, { ip: '' }),
    load('ProxyWhiteList.GetRefusals', {}, { total: 0, list: [] }),
  ]);
  return (
    <div className="space-y-5" data-testid="white-list-page">
      <PageHead trail={['获取代理', '白名单']} title="白名单" />
      <WhiteListManager initial={data.list} cap={data.cap} currIp={curr.ip} />
      <RefusalList initial={refusals.list} total={refusals.total} whiteIps={data.list.map((e) => e.ip)} />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
