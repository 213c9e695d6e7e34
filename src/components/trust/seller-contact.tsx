'use client';
// The assigned seller's phone with a copy button (seed: shown in the get-proxy panel; also in the account panel).
import { useAtomValue } from 'jotai';
import { copyText } from '../../state/clipboard';
import { mineInfoAtom } from '../../state/session';

export function SellerContact() {
  const info = useAtomValue(mineInfoAtom);
  const phone = info?.sellerInfo?.sellerPhone;
  if (!phone) return null;
  return (
    <div
      className="flex items-center justify-between gap-2 rounded-lg bg-brand-50 px-3 py-2 text-sm"
      data-testid="seller-contact"
    >
      <span className="text-slate-600">
        专属客户经理 <span className="font-medium text-ink">{phone}</span>
      </span>
      <button
        type="button"
        className="text-xs font-medium text-brand-700 hover:underline"
        onClick={() => copyText(phone)}
      >
        复制
      </button>
    </div>
  );
}
