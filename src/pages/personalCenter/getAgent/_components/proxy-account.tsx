'use client';
// The proxy account (Proxy.GetProxyAccount): username and password the proxy nodes accept instead of the white list,
// shown with copy buttons and ready-made connection strings; 「重置密码」 asks for confirmation first (at most once a
// minute). Also the uid used by AES extraction tokens (docs/extraction-api.md).
import { useState } from 'react';
import { Dialog } from '../../../../components/dialog';
import type { ActionOutput } from '../../../../lib/api-core';
import { api } from '../../../../state/api';
import { copyText } from '../../../../state/clipboard';
import { pushToast } from '../../../../state/toast';

export type ProxyAccountData = ActionOutput<'Proxy.GetProxyAccount'>;

export function ProxyAccount({ initial }: { initial: ProxyAccountData }) {
  const [acct, setAcct] = useState(initial);
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function rotate() {
    setBusy(true);
    const res = await api.call('Proxy.ResetProxyPassword', {});
    setBusy(false);
    setConfirming(false);
    if (res) {
      setAcct(res);
      setShown(true);
      pushToast('success', '代理密码已重置，旧密码将在几秒内失效');
    }
  }

  if (!acct.username) return null;
  const rows = [
    { label: '代理账号', value: acct.username, testId: 'proxy-username', mask: false },
    { label: '代理密码', value: acct.password, testId: 'proxy-password', mask: !shown },
    // uid is the extraction link's parameter: shown as code, as typed in the link.
    {
      label: (
        <>
          账号ID（<code>uid</code>）
        </>
      ),
      value: String(acct.uid),
      testId: 'proxy-uid',
      mask: false,
    },
  ];
  return (
    <section className="card space-y-3 p-5" data-testid="proxy-account">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold text-ink">代理认证</h2>
        <a href="/getProxy/10#auth" className="text-sm text-brand-600 hover:underline">
          认证方式说明
        </a>
      </div>
      <p className="text-sm text-slate-600">
        连接代理时二选一：来源IP在「白名单」内可直接连接；或使用下方代理账号密码（适合出口IP不固定的机器）。
      </p>
      <dl className="grid gap-2 text-sm md:grid-cols-3">
        {rows.map((r) => (
          <div key={r.testId} className="min-w-0 rounded-lg bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-500">{r.label}</dt>
            <dd className="mt-0.5 flex items-center justify-between gap-2">
              <span className="break-all font-mono text-ink" data-testid={r.testId}>
                {r.mask ? '••••••••••••••••' : r.value}
              </span>
              <span className="flex shrink-0 gap-2 text-xs">
                {r.testId === 'proxy-password' && (
                  <button type="button" className="text-brand-600" onClick={() => setShown((s) => !s)}>
                    {shown ? '隐藏' : '显示'}
                  </button>
                )}
                <button type="button" className="text-brand-600" onClick={() => copyText(r.value)}>
                  复制
                </button>
              </span>
            </dd>
          </div>
        ))}
      </dl>
      <div className="space-y-1 rounded-lg bg-slate-900 p-3 font-mono text-xs text-slate-100">
        <code className="block break-all">
          curl -x http://{acct.username}:{shown ? acct.password : '<密码>'}@IP:端口 https://example.com
        </code>
        <code className="block break-all">
          curl -x socks5h://{acct.username}:{shown ? acct.password : '<密码>'}@IP:端口 https://example.com
        </code>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-500">
          重置后旧密码在代理节点下次同步时失效（通常5秒内），每分钟最多重置一次。
        </p>
        <button
          type="button"
          className="btn-ghost border border-slate-200"
          onClick={() => setConfirming(true)}
          data-testid="proxy-password-reset"
        >
          重置密码
        </button>
      </div>
      <Dialog
        open={confirming}
        title="重置代理密码"
        confirmText={busy ? '重置中…' : '确定重置'}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          if (!busy) void rotate();
        }}
      >
        <p>重置后，使用旧密码的程序将无法连接代理，需要改用新密码。确定要重置吗？</p>
      </Dialog>
    </section>
  );
}
