'use client';
// The real-name prompt (seed section 4), mounted by RealNameGate (real-name-gate.tsx) only for a logged-in user with
// neither identity nor company authentication: shown on every route outside the personal-centre layout and on
// /personalCenter itself; never elsewhere in the centre.
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { useRouter } from 'waku/router/client';
import { REAL_NAME_FORM } from '../../lib/personal-center-nav';
import { showRealNamePromptAtom } from '../../state/ui';
import { Dialog } from '../dialog';

/** Whether the prompt belongs on a path for an unverified user. */
export const gateAppliesTo = (path: string): boolean =>
  !path.startsWith('/personalCenter') || path === '/personalCenter';

export function RealNamePrompt() {
  const { path } = useRouter();
  const [open, setOpen] = useAtom(showRealNamePromptAtom);
  useEffect(() => {
    setOpen(gateAppliesTo(path));
    return () => setOpen(false);
  }, [path, setOpen]);
  return (
    <Dialog
      open={open}
      title="请完成实名认证"
      onClose={() => setOpen(false)}
      onConfirm={() =>
        // 去认证 opens the verification form itself; from a buy page the chosen package (in its URL) is the way back.
        window.location.assign(
          path.startsWith('/buy')
            ? `${REAL_NAME_FORM}&next=${encodeURIComponent(window.location.pathname + window.location.search)}`
            : REAL_NAME_FORM,
        )
      }
      confirmText="去认证"
      cancelText="稍后再说"
    >
      <div data-testid="real-name-prompt" className="space-y-2">
        <p>根据《中华人民共和国网络安全法》等法律法规，使用代理服务前需完成实名认证。</p>
        <p className="text-slate-500">
          个人用户刷脸认证约1分钟完成；企业用户可上传营业执照认证。认证后可领取免费试用套餐。
        </p>
      </div>
    </Dialog>
  );
}
