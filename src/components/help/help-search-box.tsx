'use client';
// The help search box: goes to /help/search/{keyword}. Without JavaScript the form falls back to /help/search?keyword=.
import { useState } from 'react';
import { useRouter } from 'waku/router/client';

export function HelpSearchBox({ initial = '', dark = false }: { initial?: string; dark?: boolean }) {
  const [kw, setKw] = useState(initial);
  const router = useRouter();
  return (
    <form
      action="/help/search"
      method="get"
      role="search"
      className="flex w-full max-w-xl overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
      onSubmit={(e) => {
        e.preventDefault();
        const k = kw.trim();
        if (k) router.push(`/help/search/${encodeURIComponent(k)}` as '/');
      }}
    >
      <label htmlFor="help-search" className="sr-only">
        搜索帮助文章
      </label>
      <input
        id="help-search"
        name="keyword"
        value={kw}
        onChange={(e) => setKw(e.target.value)}
        maxLength={50}
        placeholder="搜索：白名单、错误码、Python、发票…"
        className="min-w-0 flex-1 px-4 py-3 text-sm text-slate-900 outline-none"
      />
      <button
        type="submit"
        className={`px-5 text-sm font-medium text-white ${dark ? 'bg-ink' : 'bg-brand-600 hover:bg-brand-700'}`}
      >
        搜索
      </button>
    </form>
  );
}
