'use client';
// The white-list manager: add (with the current IP one click away), edit, switch on/off, remove in batches.
import { useEffect, useState } from 'react';
import { Cell, DataRow, HeadedTable, rowAction, Th } from '../../../../components/data-table';
import { Dialog } from '../../../../components/dialog';
import type { ActionOutput } from '../../../../lib/api-core';
import { formatDateTime } from '../../../../lib/format';
import { DAY_MS, shanghaiDayStart } from '../../../../lib/time';
import { api } from '../../../../state/api';
import { pushToast } from '../../../../state/toast';

/** Window event other leaves dispatch after adding a white-list entry. */
export const WHITE_LIST_CHANGED = 'white-list-changed';

export type WhiteEntry = ActionOutput<'ProxyWhiteList.GetWhiteList'>['list'][number];

interface Draft {
  id: number | null;
  ip: string;
  remark: string;
  expiry: string; // yyyy-mm-dd or ''
}

const toDateInput = (ms: number) => (ms ? formatDateTime(ms).slice(0, 10) : '');
/** End of the chosen day in Asia/Shanghai, or 0 for never. */
const fromDateInput = (d: string) => (d ? shanghaiDayStart(d) + DAY_MS - 1000 : 0);

export function WhiteListManager({ initial, cap, currIp }: { initial: WhiteEntry[]; cap: number; currIp: string }) {
  const [list, setList] = useState(initial);
  const [selected, setSelected] = useState<number[]>([]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [busy, setBusy] = useState(false);

  async function reload() {
    const res = await api.call('ProxyWhiteList.GetWhiteList', {});
    if (res) setList(res.list);
    setSelected([]);
  }

  // An IP added elsewhere on the page (「添加此IP」 in the refused connections) shows up here too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload only reads stable setters
  useEffect(() => {
    const onChange = () => void reload();
    window.addEventListener(WHITE_LIST_CHANGED, onChange);
    return () => window.removeEventListener(WHITE_LIST_CHANGED, onChange);
  }, []);

  async function save() {
    if (!draft) return;
    setBusy(true);
    const params = { ip: draft.ip, remark: draft.remark, expiresAt: fromDateInput(draft.expiry) };
    const res = draft.id
      ? await api.call('ProxyWhiteList.EditProxyWhiteIp', { id: draft.id, ...params })
      : await api.call('ProxyWhiteList.AddProxyWhiteIp', params);
    setBusy(false);
    if (res) {
      pushToast('success', draft.id ? '修改成功' : '添加成功');
      setDraft(null);
      await reload();
    }
  }

  async function toggle(e: WhiteEntry) {
    if (await api.call('ProxyWhiteList.ChangeWhiteIpState', { id: e.id, state: e.enabled ? 0 : 1 })) await reload();
  }

  async function remove(ids: number[]) {
    if (ids.length === 0) return;
    if (await api.call('ProxyWhiteList.BatchRemoveProxyWhiteIp', { ids })) {
      pushToast('success', '删除成功');
      await reload();
    }
  }

  const allChecked = list.length > 0 && selected.length === list.length;
  return (
    <div className="space-y-4">
      <div className="card flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
        <p className="text-sm text-slate-600">
          当前IP：
          <span className="font-mono font-medium text-ink" data-testid="curr-ip">
            {currIp}
          </span>
          <span className="ml-3 text-slate-400">
            已添加 {list.length}/{cap}，修改后约1分钟内同步到代理节点
          </span>
        </p>
        <div className="flex gap-2">
          <button
            type="button"
            className="btn-outline"
            onClick={() => setDraft({ id: null, ip: currIp, remark: '', expiry: '' })}
          >
            添加当前IP
          </button>
          <button
            type="button"
            className="btn-primary"
            onClick={() => setDraft({ id: null, ip: '', remark: '', expiry: '' })}
          >
            添加白名单
          </button>
        </div>
      </div>
      <div className="card overflow-x-auto p-4">
        <div className="mb-3 flex items-center gap-2">
          <button
            type="button"
            className="btn-ghost border border-slate-200 px-3 py-1"
            disabled={!selected.length}
            onClick={() => remove(selected)}
          >
            批量删除{selected.length ? `（${selected.length}）` : ''}
          </button>
        </div>
        <HeadedTable
          className="md:min-w-[680px]"
          data-testid="white-list-table"
          columns={['IP地址', '备注', '过期时间', '状态', '操作']}
          empty={list.length === 0 && '还没有白名单IP，添加后即可通过API提取'}
          emptyClassName="py-10"
          lead={
            <Th className="w-8 py-2" mobile={list.length > 0}>
              <label className="inline-flex items-center gap-2">
                <input
                  type="checkbox"
                  className="max-md:size-5"
                  aria-label="全选"
                  checked={allChecked}
                  onChange={() => setSelected(allChecked ? [] : list.map((e) => e.id))}
                />
                <span className="font-normal md:hidden" aria-hidden="true">
                  全选
                </span>
              </label>
            </Th>
          }
        >
          {list.map((e) => (
            <DataRow key={e.id} className="border-b border-slate-50">
              <Cell kind="select" className="py-2">
                <input
                  type="checkbox"
                  aria-label={`选择 ${e.ip}`}
                  checked={selected.includes(e.id)}
                  onChange={() => setSelected((s) => (s.includes(e.id) ? s.filter((x) => x !== e.id) : [...s, e.id]))}
                />
              </Cell>
              <Cell kind="title" className="font-mono text-xs max-md:text-sm max-md:font-medium max-md:text-ink">
                {e.ip}
              </Cell>
              <Cell label="备注">{e.remark || '—'}</Cell>
              <Cell label="过期时间" className="whitespace-nowrap">
                {e.expiresAt ? formatDateTime(e.expiresAt) : '永久'}
              </Cell>
              <Cell label="状态">
                <span className="inline-flex items-center">
                  <button
                    type="button"
                    role="switch"
                    aria-checked={e.enabled}
                    aria-label={`${e.ip} ${e.enabled ? '已启用' : '已停用'}`}
                    onClick={() => toggle(e)}
                    className={`relative h-5 w-9 rounded-full transition-colors ${e.enabled ? 'bg-brand-600' : 'bg-slate-300'}`}
                  >
                    <span
                      className={`absolute top-0.5 h-4 w-4 rounded-full bg-white transition-all ${e.enabled ? 'left-4.5' : 'left-0.5'}`}
                    />
                  </button>
                  {e.enabled && !e.live && <span className="ml-2 text-xs text-amber-600">已过期</span>}
                </span>
              </Cell>
              <Cell kind="actions" className="whitespace-nowrap md:space-x-3">
                <button
                  type="button"
                  className={rowAction()}
                  onClick={() => setDraft({ id: e.id, ip: e.ip, remark: e.remark, expiry: toDateInput(e.expiresAt) })}
                >
                  编辑
                </button>
                <button type="button" className={rowAction('danger')} onClick={() => remove([e.id])}>
                  删除
                </button>
              </Cell>
            </DataRow>
          ))}
        </HeadedTable>
      </div>
      <Dialog
        open={draft !== null}
        title={draft?.id ? '编辑白名单' : '添加白名单'}
        onClose={() => setDraft(null)}
        onConfirm={() => {
          if (!busy) void save();
        }}
      >
        {draft && (
          <div className="space-y-3">
            <label className="block">
              <span className="mb-1 block text-slate-600">IP地址（IPv4 或 IPv6）</span>
              <input
                className="input font-mono"
                value={draft.ip}
                onChange={(ev) => setDraft({ ...draft, ip: ev.target.value })}
              />
            </label>
            <label className="block">
              <span className="mb-1 block text-slate-600">备注（选填）</span>
              <input
                className="input"
                maxLength={50}
                value={draft.remark}
                onChange={(ev) => setDraft({ ...draft, remark: ev.target.value })}
              />
            </label>
            <label className="block">
              <span className="mb-1 block text-slate-600">过期日期（留空为永久）</span>
              <input
                type="date"
                className="input"
                value={draft.expiry}
                onChange={(ev) => setDraft({ ...draft, expiry: ev.target.value })}
              />
            </label>
          </div>
        )}
      </Dialog>
    </div>
  );
}
