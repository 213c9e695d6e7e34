// Copy text for the user and say so with the one toast: 复制成功 (seed section 8), or a plain failure notice.
import { shellMessages as messages } from '../lib/messages-shell';
import { pushToast } from './toast';

/** Copy text to the clipboard; toasts 复制成功 or the failure message. Returns whether it worked. */
export async function copyText(text: string, success: string = messages.copied): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    pushToast('success', success);
    return true;
  } catch {
    pushToast('error', messages.copyFailed);
    return false;
  }
}
