'use client';
// Recent connections the proxy nodes refused for this account (ProxyWhiteList.GetRefusals): time, client IP, exit,
// the reason in Chinese, how many times (a node reports repeated refusals as one row, decision 251), and for "not on
// the white list" a one-click 「添加此IP」.
import { useState } from 'react';
import { Cell, DataRow, HeadedTable, rowAction } from '../../../../components/data-table';
import { Pager } from '../../../../components/pager';
import type { ActionOutput } from '../../../../lib/api-core';
import { formatCount, formatDateTime } from '../../../../lib/format';
import { api } from '../../../../state/api';
import { pushToast } from '../../../../state/toast';
import { WHITE_LIST_CHANGED } from './white-list-manager';

export type Refusal = ActionOutput<'ProxyWhiteList.GetRefusals'>['list'][number];

const PAGE = 10;

export function RefusalList({
  initial,
  total: initialTotal,
  whiteIps,
}: {
  initial: Refusal[];
  total: number;
  whiteIps: string[];
}) {
  const [list, setList] = useState(initial);
  const [total, setTotal] = useState(initialTotal);
  const [page, setPage] = useState(1);
  const [added, setAdded] = useState<string[]>([]);

  async function load(p: number) {
    const res = await api.call('ProxyWhiteList.GetRefusals', {
      page: p,
      pageSize: PAGE,
    });
    if (res) {
      setList(res.list);
      setTotal(res.total);
      setPage(p);
    }
  }

  async function add(ip: string) {
    if (await api.call('ProxyWhiteList.AddProxyWhiteIp', { ip, remark: '从被拒绝的连接添加' })) {
      pushToast('success', '添加成功');
      setAdded((a) => [...a, ip]);
      window.dispatchEvent(new Event(WHITE_LIST_CHANGED));
    }
  }

  return (
    <div className="card overflow-x-auto p-4" data-testid="refusal-list">
      <h2 className="mb-1 font-semibold text-ink">最近被拒绝的连接</h2>
      <p className="mb-3 text-xs text-slate-500">
        代理节点拒绝的连接（最近7天），约1分钟内显示。来源IP不在白名单时可一键添加，或改用「API提取」页的代理账号密码认证。
        各原因的含义与处理方法见{' '}
        <a href="/helpDetails/proxy-refusal-codes.html" className="text-brand-600 hover:underline">
          拒绝原因说明
        </a>
        。
      </p>
      <HeadedTable
        className="md:min-w-[740px]"
        columns={['时间', '来源IP', '代理IP', '原因', '次数', '操作']}
        empty={list.length === 0 && '最近7天没有被拒绝的连接'}
        emptyClassName="py-8"
      >
        {list.map((r) => {
          const listed = whiteIps.includes(r.clientIp) || added.includes(r.clientIp);
          return (
            <DataRow key={r.id} className="border-b border-slate-50">
              <Cell kind="title" className="whitespace-nowrap py-2 max-md:font-medium max-md:text-ink">
                {formatDateTime(r.at)}
                {r.count > 1 && r.lastAt > r.at && (
                  <span className="block text-xs font-normal text-slate-500">末次 {formatDateTime(r.lastAt)}</span>
                )}
              </Cell>
              <Cell label="来源IP" className="font-mono text-xs">
                {r.clientIp}
              </Cell>
              <Cell label="代理IP" className="font-mono text-xs">
                {r.exit}
              </Cell>
              <Cell label="原因" className="text-xs text-slate-600 md:max-w-[320px]">
                {r.reason}
              </Cell>
              <Cell label="次数" className="whitespace-nowrap text-xs tabular-nums md:pr-3" data-testid="refusal-count">
                {formatCount(r.count)}
              </Cell>
              <Cell kind="actions" className="whitespace-nowrap">
                {r.canAdd && !listed && (
                  <button type="button" className={rowAction()} onClick={() => add(r.clientIp)}>
                    添加此IP
                  </button>
                )}
                {r.canAdd && listed && <span className="text-xs text-emerald-600">已在白名单</span>}
              </Cell>
            </DataRow>
          );
        })}
      </HeadedTable>
      <Pager page={page} pageSize={PAGE} total={total} onPage={(p) => void load(p)} />
    </div>
  );
}
