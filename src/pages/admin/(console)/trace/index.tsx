// /admin/trace (support): who held exit IP X at time T (北京时间): the customer (masked phone), package, lease window,
// the client addresses the node saw and the real-name state, from hot data and the R2 archive (docs/decisions/221).
// Every lookup is audited. Below it, one customer's history for a range as CSV (audited too).
import type { ActionOutput } from '../../../../lib/api-core';
import { PRODUCT_LABEL } from '../../../../lib/commerce';
import { formatDateTime } from '../../../../lib/format';
import { DAY_MS, shanghaiDay } from '../../../../lib/time';
import { load } from '../../../../server/page-data';
import { type Column, ListTable, queryText, SearchForm, TableCard, TextFilter } from '../../_components/console-list';
import { PageTitle, Section } from '../../_components/parts';
import { CustomerHistoryExport } from './_components/trace-tools';

type Holder = ActionOutput<'Admin.ExitTrace'>['holders'][number];

const COLUMNS: Column<Holder>[] = [
  {
    head: '客户',
    kind: 'title',
    cell: (h) => (
      <a href={`/admin/customers/${h.userId}`} className="text-brand-700 hover:underline">
        {h.phone || `用户 ${h.userId}`}
      </a>
    ),
  },
  { head: '实名状态', cell: (h) => h.realName },
  {
    head: '套餐',
    cell: (h) => `${h.packageName || `套餐 ${h.packageId}`}（${PRODUCT_LABEL[h.productType] ?? '代理IP'}）`,
  },
  { head: '出口', className: 'font-mono text-xs break-all', cell: (h) => `${h.ip}:${h.port}` },
  { head: '租期', cell: (h) => `${formatDateTime(h.assignedAt)} 至 ${formatDateTime(h.expiresAt)}` },
  {
    head: '来源IP',
    className: 'font-mono text-xs break-all',
    cell: (h) => (h.clients.length > 0 ? h.clients.join('、') : '无连接记录'),
  },
  { head: '数据来源', cell: (h) => (h.from === 'hot' ? '近期数据' : '归档') },
];

export default async function AdminTracePage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const ip = queryText(p, 'ip');
  const at = queryText(p, 'at', 19);
  const now = Date.now();
  const asked = ip !== '' && at !== '';
  const res = asked ? await load('Admin.ExitTrace', { ip, at }, false) : null;
  return (
    <div className="space-y-4">
      <PageTitle title="出口IP溯源" />
      <SearchForm submit="溯源">
        <TextFilter name="ip" value={ip} label="出口IP" hint="出口IP，如 203.0.113.9" className="input sm:max-w-xs" />
        <TextFilter
          name="at"
          value={at || formatDateTime(now).slice(0, 16)}
          label="时间（北京时间）"
          hint="2026-01-31 08:30"
          className="input sm:w-48"
        />
      </SearchForm>
      <p className="text-xs text-slate-500">
        查询该时刻持有此出口IP的客户（含租期结束后5分钟内的上报）。近七天的数据来自出口所在节点的实时记录，更早的来自归档，记录保存至少180天。每次查询都会写入操作日志。
      </p>
      {asked && !res ? (
        <p className="card p-4 text-sm text-rose-600">未能查询：请检查IP与时间的格式（如 2026-01-31 08:30）。</p>
      ) : null}
      {res ? (
        <TableCard>
          <ListTable
            data-testid="trace-table"
            rows={res.holders}
            rowKey={(h) => `${h.from}-${h.leaseId}`}
            empty="该时刻没有客户持有此出口IP"
            columns={COLUMNS}
          />
        </TableCard>
      ) : null}
      <Section title="导出客户记录">
        <CustomerHistoryExport fromDay={shanghaiDay(now - 29 * DAY_MS)} toDay={shanghaiDay(now)} />
        <p className="mt-2 text-xs text-slate-500">
          按客户手机号导出一段日期（北京时间，最多180天）的IP明细或调用记录，含归档；导出会写入操作日志。
        </p>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
