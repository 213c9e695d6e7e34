'use client';
// The online-chat widget loader: one second after the page settles, on desktop only and never under /personalCenter,
// asks Config.CurrentMessageShow and injects the configured chat script when the answer is res: true.
import { useEffect } from 'react';
import { useRouter } from 'waku/router/client';
import { api } from '../../state/api';

const SCRIPT_ID = 'online-chat-script';

/** True where the chat may appear (seed: hidden on paths containing /personalCenter; desktop only). */
export const chatAllowedOn = (path: string, width: number): boolean => !path.includes('/personalCenter') && width > 768;

export function OnlineChat() {
  const { path } = useRouter();
  useEffect(() => {
    const root = document.documentElement;
    if (!chatAllowedOn(path, window.innerWidth)) {
      root.dataset.chatHidden = '1';
      return;
    }
    delete root.dataset.chatHidden;
    if (document.getElementById(SCRIPT_ID)) return;
    const timer = setTimeout(async () => {
      const r = await api.call('Config.CurrentMessageShow', {}, { silent: true });
      if (r === false || !r.res || document.getElementById(SCRIPT_ID)) return;
      const s = document.createElement('script');
      s.id = SCRIPT_ID;
      s.src = r.scriptUrl;
      s.async = true;
      document.body.appendChild(s);
    }, 1000);
    return () => clearTimeout(timer);
  }, [path]);
  return null;
}
