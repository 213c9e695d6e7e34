'use client';
// The get-proxy tool: pick package, count, region, protocol, format and fields; see the link, copy it, try it. The
// extraction key is stored as a hash (docs/decisions/199): it is shown once, when created or reset here; otherwise the
// customer pastes the key they saved (it stays in this page only).
import { useEffect, useId, useMemo, useState } from 'react';
import type { ActionOutput } from '../../../../lib/api-core';
import { buildExtractLink, type ExtractLinkOptions } from '../../../../lib/extract-link';
import { messages } from '../../../../lib/messages';
import { api } from '../../../../state/api';
import { copyText } from '../../../../state/clipboard';
import { pushToast } from '../../../../state/toast';

/** Extract.GetMealAndRegion: the key (only when this load created it), the packages to extract from, regions and carriers (any list of carriers, so
 * a page whose load failed can pass an empty one). */
export type ToolData = Omit<ActionOutput<'Extract.GetMealAndRegion'>, 'carriers'> & { carriers: readonly string[] };

const FIELDS = [
  { key: 'region', label: '地区' },
  { key: 'carrier', label: '运营商' },
  { key: 'expire', label: '到期时间' },
  { key: 'ttl', label: '剩余秒数' },
];
const SEPS = [
  { v: 1, label: '回车换行 \\r\\n' },
  { v: 2, label: '换行 \\n' },
  { v: 3, label: '空格' },
  { v: 4, label: '竖线 |' },
  { v: 5, label: '自定义' },
] as const;

type Meal = ToolData['meals'][number];
/** The option label: the tab already names the product, so a leading "短效动态IP · " is left out (phones are narrow). */
const shortMealName = (name: string) => name.replace(/^(短效动态IP|长效静态IP)\s*·?\s*/, '') || name;
/** What is left of a package; `short` for the option label ("剩余8650", "今日剩2000"), the line below has it in full. */
const mealLeft = (m: Meal, short = false) => {
  if (m.available < 0) return '不限量';
  if (short) return m.billingMethod === 2 ? `今日剩${m.available}` : `剩余${m.available}`;
  return `${m.billingMethod === 2 ? '今日' : ''}剩余${m.available}个`;
};

/**
 * What 测试提取 costs, said before the click: it is a real extraction of the link (docs/decisions/231), so it takes
 * up to `num` IPs from the chosen package exactly as the API would.
 */
export function tryCostText(m: Meal | undefined, num: number): string {
  const head = '测试提取与「打开」都是真实提取，与API调用相同：';
  if (!m) return `${head}最多提取${num}个IP。`;
  if (m.available < 0) return `${head}最多提取${num}个IP（该套餐不限量，不扣个数）。`;
  if (m.billingMethod === 2) return `${head}最多${num}个IP计入该套餐今日用量（今日剩余${m.available}个）。`;
  return `${head}将从该套餐扣除最多${num}个IP（现剩余${m.available}个）。`;
}

const chip = (on: boolean) =>
  `rounded-lg border px-3 py-1.5 text-sm ${on ? 'border-brand-600 bg-brand-50 text-brand-700' : 'border-slate-200 text-slate-600 hover:border-brand-300'}`;

export function ExtractTool({ type, data }: { type: 10 | 40; data: ToolData }) {
  const [o, setO] = useState<ExtractLinkOptions>({
    key: data.apiKey ?? '',
    type,
    num: 10,
    protocol: 'http',
    format: 'txt',
    sep: 1,
    sepText: ',',
    regions: [],
    carrier: '',
    dedup: 0,
    minTtl: 0,
    fields: [],
    packageId: data.meals[0]?.id ?? null,
  });
  const [result, setResult] = useState<{ status: number; text: string } | null>(null);
  // The key in plain is on this page only right after it was created or reset.
  const [keyShown, setKeyShown] = useState(data.apiKey !== null && data.apiKey !== '');
  const keyNoteId = useId();
  const [trying, setTrying] = useState(false);
  // The origin is known only in the browser; set after hydration so server and client render the same text.
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  const link = useMemo(() => buildExtractLink(origin, o), [origin, o]);
  const picked = data.meals.find((m) => m.id === o.packageId);
  const pickedId = useId();
  // A test result belongs to the link it was fetched with: any change of the options clears it.
  const set = (patch: Partial<ExtractLinkOptions>) => {
    setO((cur) => ({ ...cur, ...patch }));
    setResult(null);
  };
  const toggleIn = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

  const copy = () => copyText(link);

  async function resetKey() {
    if (!window.confirm('重置后旧的提取密钥、AES Key/IV 与已生成的令牌立即失效，确定重置吗？')) return;
    const res = await api.call('proxy.resetSecret', {});
    if (res) {
      set({ key: res.apiKey });
      setKeyShown(true);
      pushToast('success', '提取密钥已重置，请立即复制保存');
    }
  }

  async function tryIt() {
    setTrying(true);
    try {
      const res = await fetch(link, { cache: 'no-store' });
      setResult({ status: res.status, text: await res.text() });
    } catch {
      setResult({ status: 0, text: messages.network });
    }
    setTrying(false);
  }

  if (data.meals.length === 0) {
    return (
      <div className="card p-10 text-center" data-testid="extract-no-package">
        <p className="text-slate-500">暂无可用的{type === 40 ? '长效静态' : '短效动态'}套餐</p>
        <a href={`/buy?type=${type}`} className="btn-primary mt-4">
          去购买
        </a>
      </div>
    );
  }
  return (
    <div className="grid gap-5 lg:grid-cols-[1fr_380px]">
      <section className="card space-y-5 p-5">
        <Row label="提取密钥">
          <input
            className="input max-w-md font-mono"
            value={o.key}
            onChange={(e) => set({ key: e.target.value.trim() })}
            placeholder="粘贴您保存的提取密钥"
            autoComplete="off"
            spellCheck={false}
            data-testid="extract-key"
            aria-label="提取密钥"
            aria-describedby={keyNoteId}
          />
          <button
            type="button"
            className="btn-ghost border border-slate-200"
            onClick={resetKey}
            data-testid="reset-key"
          >
            重置密钥
          </button>
          <p
            id={keyNoteId}
            className={`w-full text-xs ${keyShown ? 'rounded-lg bg-amber-50 p-2 text-amber-800' : 'text-slate-500'}`}
            data-testid="extract-key-note"
          >
            {keyShown
              ? '这是您的提取密钥，只显示这一次：请立即复制并妥善保存，离开本页后将无法再次查看。如遗忘，可点击「重置密钥」生成新密钥（旧密钥与 AES 令牌立即失效）。'
              : '为保障安全，提取密钥只在创建或重置时显示一次，平台不保存明文。请粘贴您保存的密钥以生成链接；如已遗忘，请点击「重置密钥」生成新密钥。'}
          </p>
        </Row>
        <Row label="选择套餐">
          <select
            className="input max-w-md truncate"
            value={o.packageId ?? ''}
            onChange={(e) => set({ packageId: Number(e.target.value) || null })}
            data-testid="pick-package"
            aria-label="选择套餐"
            aria-describedby={picked ? pickedId : undefined}
          >
            {data.meals.map((m) => (
              <option key={m.id} value={m.id} title={m.name}>
                {shortMealName(m.name)} · {mealLeft(m, true)}
              </option>
            ))}
          </select>
          {picked && (
            <p id={pickedId} className="w-full text-xs break-words text-slate-400" data-testid="picked-package">
              {picked.name}（{mealLeft(picked)}）
            </p>
          )}
        </Row>
        <Row label="提取数量">
          <input
            type="number"
            min={1}
            max={200}
            className="input w-32"
            value={o.num}
            onChange={(e) => set({ num: Math.min(200, Math.max(1, Math.trunc(Number(e.target.value)) || 1)) })}
            data-testid="pick-num"
            aria-label="提取数量"
          />
          <span className="text-xs text-slate-400">每次1-200个</span>
        </Row>
        <Row label="地区">
          <div className="flex max-h-40 flex-wrap gap-2 overflow-y-auto">
            <button type="button" className={chip(o.regions.length === 0)} onClick={() => set({ regions: [] })}>
              全国混拨
            </button>
            {data.regions.map((r) => (
              <button
                key={r.province}
                type="button"
                className={chip(o.regions.includes(r.province))}
                onClick={() => set({ regions: toggleIn(o.regions, r.province) })}
              >
                {r.province}
              </button>
            ))}
          </div>
        </Row>
        <Row label="运营商">
          {['', ...data.carriers].map((c) => (
            <button
              key={c || 'all'}
              type="button"
              className={chip(o.carrier === c)}
              onClick={() => set({ carrier: c })}
            >
              {c || '不限'}
            </button>
          ))}
        </Row>
        <Row label="协议">
          {(['http', 'https', 'socks5'] as const).map((p) => (
            <button key={p} type="button" className={chip(o.protocol === p)} onClick={() => set({ protocol: p })}>
              {p.toUpperCase()}
            </button>
          ))}
        </Row>
        <Row label="返回格式">
          {(['txt', 'json'] as const).map((f) => (
            <button
              key={f}
              type="button"
              className={chip(o.format === f)}
              onClick={() => set({ format: f })}
              data-testid={`format-${f}`}
            >
              {f.toUpperCase()}
            </button>
          ))}
        </Row>
        {o.format === 'txt' && (
          <Row label="分隔符">
            {SEPS.map((s) => (
              <button key={s.v} type="button" className={chip(o.sep === s.v)} onClick={() => set({ sep: s.v })}>
                {s.label}
              </button>
            ))}
            {o.sep === 5 && (
              <input
                className="input w-24"
                maxLength={10}
                value={o.sepText}
                aria-label="自定义分隔符"
                onChange={(e) => set({ sepText: e.target.value })}
              />
            )}
          </Row>
        )}
        <Row label="附加字段">
          {FIELDS.map((f) => (
            <label key={f.key} className="flex items-center gap-1.5 py-1.5 text-sm text-slate-600">
              <input
                type="checkbox"
                checked={o.fields.includes(f.key)}
                onChange={() => set({ fields: toggleIn(o.fields, f.key) })}
              />
              {f.label}
            </label>
          ))}
        </Row>
        <Row label="去重">
          {[
            { v: 0, label: '不去重' },
            { v: 1, label: '当天去重' },
            { v: 2, label: '排除使用中' },
          ].map((d) => (
            <button
              key={d.v}
              type="button"
              className={chip(o.dedup === d.v)}
              onClick={() => set({ dedup: d.v as 0 | 1 | 2 })}
            >
              {d.label}
            </button>
          ))}
        </Row>
        <Row label="最短剩余时长">
          <input
            type="number"
            min={0}
            className="input w-32"
            value={o.minTtl}
            aria-label="最短剩余时长（秒）"
            onChange={(e) => set({ minTtl: Math.max(0, Math.trunc(Number(e.target.value)) || 0) })}
          />
          <span className="text-xs text-slate-400">秒，只返回剩余时长不少于此值的IP</span>
        </Row>
      </section>
      <aside className="space-y-4">
        <section className="card p-5">
          <h2 className="mb-2 font-semibold text-ink">提取链接</h2>
          <p
            className="break-all rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-700"
            data-testid="extract-link"
          >
            {link}
          </p>
          <div className="mt-3 flex gap-2">
            <button type="button" className="btn-primary flex-1" onClick={copy} data-testid="copy-link">
              复制链接
            </button>
            <button
              type="button"
              className="btn-outline flex-1"
              onClick={tryIt}
              disabled={trying}
              data-testid="try-link"
            >
              {trying ? '提取中…' : '测试提取'}
            </button>
            <a className="btn-ghost border border-slate-200" href={link} target="_blank" rel="noreferrer">
              打开
            </a>
          </div>
          <p className="mt-2 text-xs leading-5 text-amber-700" data-testid="try-cost">
            {tryCostText(picked, o.num)}
          </p>
          {data.whiteListCount === 0 && (
            <p className="mt-3 rounded-lg bg-amber-50 p-2 text-xs text-amber-800">
              尚未添加白名单，提取前请先
              <a className="underline" href="/personalCenter/getAgent/whiteList">
                添加调用IP
              </a>
            </p>
          )}
        </section>
        {result && (
          <section className="card p-5">
            <h2 className="mb-2 flex items-center justify-between font-semibold text-ink">
              测试结果
              <span className={`text-xs ${result.status === 200 ? 'text-emerald-600' : 'text-rose-600'}`}>
                HTTP {result.status}
              </span>
            </h2>
            <pre
              className="max-h-72 overflow-auto rounded-lg bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-100"
              data-testid="try-result"
            >
              {result.text}
            </pre>
          </section>
        )}
      </aside>
    </div>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-2 md:flex-row md:items-start">
      <div className="w-28 shrink-0 pt-1.5 text-sm text-slate-500">{label}</div>
      <div className="flex flex-1 flex-wrap items-center gap-2">{children}</div>
    </div>
  );
}
