'use client';
// The account panel (desktop dropdown and mobile top drawer): identity status, shortcuts, the secret-key button when
// the proxy API is open, and logout.
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { logoutLocally } from '../../lib/api-browser';
import { mineInfoAtom } from '../../state/session';
import { accountDrawerOpenAtom, accountPanelOpenAtom } from '../../state/ui';
import { Dialog } from '../dialog';

const SHORTCUTS = [
  { label: '个人中心', href: '/personalCenter' },
  { label: '购买套餐', href: '/buy?type=10' },
  { label: 'API提取', href: '/getProxy/10' },
  { label: '帮助中心', href: '/help' },
];

export function AccountPanel() {
  const info = useAtomValue(mineInfoAtom);
  const closePanel = useSetAtom(accountPanelOpenAtom);
  const closeDrawer = useSetAtom(accountDrawerOpenAtom);
  const [secretOpen, setSecretOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!info) return null;
  const verified = info.identityLabel !== '未认证';

  async function logout() {
    setBusy(true);
    await logoutLocally();
    closePanel(false);
    closeDrawer(false);
    window.location.assign('/');
  }

  return (
    <div className="w-full text-slate-700" data-testid="account-panel">
      <div className="flex items-center justify-between gap-3 border-b border-slate-100 pb-3">
        <div>
          <div className="font-semibold text-ink">{info.phone}</div>
          <div className="mt-1 flex items-center gap-2 text-xs">
            <span
              data-testid="identity-label"
              className={`rounded px-1.5 py-0.5 ${verified ? 'bg-emerald-50 text-emerald-700' : 'bg-amber-50 text-amber-700'}`}
            >
              {info.identityLabel}
            </span>
            {!verified && (
              <a href="/personalCenter/realNameAuth" className="text-brand-600 hover:underline">
                去认证
              </a>
            )}
          </div>
        </div>
        {info.proxyApiOpend && (
          <button type="button" className="btn-outline px-3 py-1.5 text-xs" onClick={() => setSecretOpen(true)}>
            密钥
          </button>
        )}
      </div>
      <ul className="grid grid-cols-2 gap-2 py-3">
        {SHORTCUTS.map((s) => (
          <li key={s.href}>
            <a
              href={s.href}
              className="block rounded-lg bg-slate-50 px-3 py-2 text-center text-sm hover:bg-brand-50 hover:text-brand-700"
            >
              {s.label}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" className="btn-ghost w-full border border-slate-200" onClick={logout} disabled={busy}>
        退出登录
      </button>
      <Dialog open={secretOpen} title="API 密钥" onClose={() => setSecretOpen(false)}>
        <p className="mb-3 rounded-lg bg-amber-50 p-3 text-amber-800">
          代理API的密码必须使用AES加密后传输，请勿明文传输密码。
        </p>
        <dl className="space-y-2 font-mono text-xs">
          <div>
            <dt className="text-slate-500">Key</dt>
            <dd className="break-all">{info.proxyApiKey ?? '—'}</dd>
          </div>
          <div>
            <dt className="text-slate-500">IV</dt>
            <dd className="break-all">{info.proxyApiIv ?? '—'}</dd>
          </div>
        </dl>
      </Dialog>
    </div>
  );
}
