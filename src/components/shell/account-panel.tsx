'use client';
// The account panel (desktop dropdown and mobile top drawer): identity status, the package rows from
// Proxy.GetMealCount (loaded each time the panel opens) with the seed's button rules, the secret-key button when the
// proxy API is open, and logout.
import { useAtom, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { MEAL_ROWS, type MealCounts, mealButton } from '../../lib/meal-buttons';
import { accountMenuLinks, REAL_NAME_FORM } from '../../lib/personal-center-nav';
import { api, logoutLocally } from '../../state/api';
import { copyText } from '../../state/clipboard';
import { mineInfoAtom } from '../../state/session';
import { pushToast } from '../../state/toast';
import { accountDrawerOpenAtom, accountPanelOpenAtom } from '../../state/ui';
import { Dialog } from '../dialog';
import { SellerContact } from '../trust/seller-contact';

// The personal-centre shortcuts come from the personal centre's own menu (src/lib/personal-center-nav.ts).
const SHORTCUTS = accountMenuLinks();

export function AccountPanel() {
  const [info, setInfo] = useAtom(mineInfoAtom);
  const closePanel = useSetAtom(accountPanelOpenAtom);
  const closeDrawer = useSetAtom(accountDrawerOpenAtom);
  const [secretOpen, setSecretOpen] = useState(false);
  // The extraction key is stored as a hash: it is shown here once, right after a reset (docs/decisions/199).
  const [newKey, setNewKey] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [counts, setCounts] = useState<Partial<MealCounts> | null>(null);
  const userId = info?.id;

  useEffect(() => {
    if (userId === undefined) return;
    let live = true;
    void api.call('Proxy.GetMealCount', {}, { silent: true }).then((res) => {
      // On failure the rows fall back to their defaults (— and 去购买), as before the counts load.
      if (live) setCounts(res ? res.data : {});
    });
    return () => {
      live = false;
    };
  }, [userId]);

  if (!info) return null;
  const verified = info.identityLabel !== '未认证';

  async function logout() {
    setBusy(true);
    await logoutLocally();
    closePanel(false);
    closeDrawer(false);
    window.location.assign('/');
  }

  async function resetSecret() {
    if (!window.confirm('重置后旧的提取密钥、AES Key/IV 与已生成的令牌立即失效，确定重置吗？')) return;
    const res = await api.call('proxy.resetSecret', {});
    if (res && info) {
      setInfo({ ...info, proxyApiKey: res.proxyApiKey, proxyApiIv: res.proxyApiIv });
      setNewKey(res.apiKey);
      pushToast('success', '密钥已重置，旧密钥已失效');
    }
  }

  const copy = (text: string) => copyText(text);

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
              <a href={REAL_NAME_FORM} className="text-brand-600 hover:underline">
                去认证
              </a>
            )}
          </div>
        </div>
        {info.proxyApiOpend && (
          <button
            type="button"
            className="btn-outline px-3 py-1.5 text-xs"
            onClick={() => setSecretOpen(true)}
            data-testid="secret-button"
          >
            密钥
          </button>
        )}
      </div>
      <ul className="divide-y divide-slate-50 py-2" data-testid="meal-rows">
        {MEAL_ROWS.map((row) => {
          const c = counts?.[row.key] ?? { num: 0, state: 0, value: '—' };
          const button = mealButton(row.kind, row.type, c);
          return (
            <li key={row.key} className="flex items-center justify-between gap-2 py-1.5 text-sm">
              <span className="text-slate-600">{row.label}</span>
              <span className="ml-auto text-xs text-slate-400">{counts ? c.value : '…'}</span>
              {counts ? (
                <a
                  href={button.href}
                  data-testid={`meal-${row.key}`}
                  className="w-14 shrink-0 rounded bg-brand-50 px-2 py-0.5 text-center text-xs text-brand-700 hover:bg-brand-100"
                >
                  {button.text}
                </a>
              ) : (
                // Until the counts arrive the right button is unknown: no link yet, so a quick tap cannot go to 去购买.
                <span className="w-14 shrink-0 rounded bg-slate-50 px-2 py-0.5 text-center text-xs text-slate-400">
                  …
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {/* Issue 6: the assigned seller's phone with a copy button (get-proxy part of the panel). */}
      <SellerContact />
      <ul
        className="grid grid-cols-3 gap-1.5 border-t border-slate-100 py-3"
        aria-label="个人中心"
        data-testid="account-links"
      >
        {SHORTCUTS.map((s) => (
          <li key={s.href}>
            <a
              href={s.href}
              className="block rounded-lg bg-slate-50 px-1 py-2 text-center text-sm whitespace-nowrap hover:bg-brand-50 hover:text-brand-700"
            >
              {s.label}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" className="btn-ghost w-full border border-slate-200" onClick={logout} disabled={busy}>
        退出登录
      </button>
      <Dialog
        open={secretOpen}
        title="API 密钥"
        onClose={() => {
          setSecretOpen(false);
          setNewKey(null);
        }}
        bare
      >
        <p className="mb-3 rounded-lg bg-amber-50 p-3 text-amber-800" data-testid="secret-aes-notice">
          代理API的密码必须使用AES加密后传输，请勿明文传输密码。用下方的 Key 与 IV（AES-128-CBC，PKCS#7 填充）加密
          {' {"k":"提取密钥","t":毫秒时间戳} '}，Base64 编码后作为提取接口的 token 参数，并带上 uid={info.id}
          。令牌5分钟内有效，每个只能使用一次；重置密钥会同时更换提取密钥与 Key/IV。
        </p>
        <p className="mb-3 text-xs text-slate-500" data-testid="secret-key-once-notice">
          {newKey
            ? '新的提取密钥只显示这一次：请立即复制并妥善保存，关闭后将无法再次查看；如遗忘，可再次重置。'
            : '为保障安全，提取密钥只在创建或重置时显示一次；如已遗忘，请点击「重置密钥」生成新密钥。'}
        </p>
        <dl className="space-y-2 font-mono text-xs">
          {[
            ...(newKey ? [{ label: '提取密钥', value: newKey }] : []),
            { label: 'Key', value: info.proxyApiKey },
            { label: 'IV', value: info.proxyApiIv },
          ].map((row) => (
            <div key={row.label} className="flex items-center justify-between gap-2">
              <div>
                <dt className="text-slate-500">{row.label}</dt>
                <dd className="break-all" data-testid={`secret-${row.label.toLowerCase()}`}>
                  {row.value ?? '—'}
                </dd>
              </div>
              {row.value && (
                <button type="button" className="text-brand-600" onClick={() => copy(row.value ?? '')}>
                  复制
                </button>
              )}
            </div>
          ))}
        </dl>
        <div className="mt-4 flex justify-between gap-3 border-t border-slate-100 pt-3">
          <button type="button" className="btn-ghost border border-slate-200" onClick={resetSecret}>
            重置密钥
          </button>
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              setSecretOpen(false);
              setNewKey(null);
            }}
          >
            确定
          </button>
        </div>
      </Dialog>
    </div>
  );
}
