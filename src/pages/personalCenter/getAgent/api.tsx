// /personalCenter/getAgent/api?type=10|40[&proxyType=1]: the get-proxy tool (API extraction link generator).

import { LinkTabs, queryOf } from '../../../components/list-page';
import { PageHead } from '../../../components/page-head';
import { load } from '../../../server/page-data';
import { ExtractTool } from './_components/extract-tool';
import { ProxyAccount } from './_components/proxy-account';

export default async function GetAgentApiPage({ query }: { query?: string }) {
  const q = queryOf(query);
  const type = q.get('type') === '40' ? 40 : 10;
  const [tabs, data] = await Promise.all([
    load('Extract.GetTabCount', {}, { 10: 0, 40: 0 }),
    load(
      'Extract.GetMealAndRegion',
      { type },
      { apiKey: null, whiteListCount: 0, meals: [], regions: [], carriers: [], protocols: [] },
    ),
  ]);
  // After the tool data: a new customer's credentials are created by the call above, the one that shows the key.
  const account = await load('Proxy.GetProxyAccount', {}, { uid: 0, username: '', password: '' });
  return (
    <div className="space-y-5" data-testid="extract-tool-page">
      <PageHead
        trail={['获取代理', 'API提取']}
        title="API提取"
        actions={
          <a href="/getProxy/10#api" className="text-sm text-brand-600 hover:underline">
            接口文档
          </a>
        }
      />
      <LinkTabs
        current={String(type)}
        tabs={[
          {
            key: '10',
            label: `短效动态IP（${tabs[10]}）`,
            href: '/personalCenter/getAgent/api?type=10&proxyType=1',
          },
          {
            key: '40',
            label: `长效静态IP（${tabs[40]}）`,
            href: '/personalCenter/getAgent/api?type=40&proxyType=1',
          },
        ]}
      />
      <ExtractTool key={type} type={type} data={data} />
      <ProxyAccount initial={account} />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
