'use client';
// Refund in three steps: 退款预览 (what the refund takes back, or why it cannot happen) -> amount, reason and 确认退款 ->
// the refund goes back by the rail that paid (or to the balance) and the screen reloads with the outcome, worded by that
// rail (refundStatusText). RefundFlow is the steps; RefundPanel
// refunds a paid order in full or in part (Order.RefundByOrderNo; the amount typed in 元, capped by what is still
// refundable, beside the package's usage and a pro-rata suggestion: docs/decisions/205, 206); payment-refund-panel.tsx
// one flagged payment attempt (always in full).
import { type ReactNode, useState } from 'react';
import { useRouter } from 'waku/router/client';
import { Dialog } from '../../../../../components/dialog';
import { formatCount, formatFen } from '../../../../../lib/format';
import {
  COUPON_RULE_TEXT,
  PACKAGE_RULE_TEXT,
  type PayRail,
  REFUND_RAIL_NAME,
  refundRail,
  refundRouteText,
  refundStatusText,
} from '../../../../../lib/refund-rules';
import { formatDateTime } from '../../../../../lib/time';
import type { refundPreview } from '../../../../../server/domain/console-screens';
import { pushToast } from '../../../../../state/toast';
import { consoleApi } from '../../../_components/console-api';
import { yuanToFen } from '../../../_components/record-form';

/** What every refund preview tells: the amount, why it cannot happen (or null), a refund already in flight. */
interface PreviewBase {
  amountFen: number;
  blocker: string | null;
  liveRefund: { outRefundNo: string; amountFen?: number } | null;
}

/** What was paid, when the preview says (an order's); else the amount itself (a single payment is always whole). */
const fullFen = (p: PreviewBase): number => ('payFen' in p && typeof p.payFen === 'number' ? p.payFen : p.amountFen);

/** The amount the operator chose (a partial refund only when the preview allows one). */
export interface RefundChoice {
  amountFen: number;
  /** All that is still refundable: the refund ends the order. */
  isFinal: boolean;
  endPackages: boolean;
  /** Where the money goes: back to the paying rail, or to the customer's account balance (docs/decisions/224). */
  route: 'original' | 'balance';
}

/** The three steps of a refund, whatever is refunded: `load` the preview, `run` the refund with the reason. */
export function RefundFlow<P extends PreviewBase>({
  load,
  run,
  title,
  buttonClassName = '',
  testId,
  amountNote,
  effects,
  partial,
  wide = false,
  payRail,
  rail: fixedRail,
}: {
  load: () => Promise<P | false>;
  run: (reason: string, choice: RefundChoice) => Promise<{ status: string; amountFen: number; rail: PayRail } | false>;
  title: string;
  buttonClassName?: string;
  /** The button's test id; the preview's is `${testId}-preview`. */
  testId: string;
  /** Said after the route (e.g. which payment). */
  amountNote?: ReactNode;
  /** What the refund changes besides the money, as list items. */
  effects: (preview: P, choice: RefundChoice) => ReactNode;
  /** Partial refunds allowed: what the amount field shows above it (usage, suggestion) and its prefill. */
  partial?: { prefillFen: (preview: P) => number; above: (preview: P, fill: (fen: number) => void) => ReactNode };
  wide?: boolean;
  /**
   * The rail that paid, when the operator may choose the route: 原路退回 that rail or 退回余额 ('balance': an order
   * paid from balance goes back to balance only). Absent: back to the rail, as a payment attempt's refund always is.
   */
  payRail?: (preview: P) => PayRail | null;
  /** The rail the money goes back by when the operator has no choice of route (a payment attempt's refund). */
  rail?: (preview: P) => PayRail | null;
}) {
  const [preview, setPreview] = useState<P | null>(null);
  const [route, setRoute] = useState<'original' | 'balance'>('original');
  const [reason, setReason] = useState('');
  const [amountText, setAmountText] = useState('');
  const [endPackages, setEndPackages] = useState(false);
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  const fill = (fen: number) => setAmountText(formatFen(fen, false));
  async function open() {
    const res = await load();
    if (!res) return;
    setPreview(res);
    setEndPackages(false);
    setRoute(payRail?.(res) === 'balance' ? 'balance' : 'original');
    fill(partial ? partial.prefillFen(res) : res.amountFen);
  }
  // A refund in flight is re-sent as it was reserved: its amount, whatever is typed.
  const inFlight = preview?.liveRefund?.amountFen;
  const typedFen = partial && inFlight === undefined ? yuanToFen(amountText) : (inFlight ?? preview?.amountFen ?? null);
  const amountError =
    !preview || preview.blocker
      ? null
      : typedFen === null || typedFen <= 0
        ? '请填写退款金额（元，最多两位小数，至少0.01元）'
        : typedFen > preview.amountFen
          ? `超过可退金额 ${formatFen(preview.amountFen)}`
          : null;
  const choice: RefundChoice | null =
    preview && typedFen !== null && !amountError
      ? { amountFen: typedFen, isFinal: typedFen === preview.amountFen, endPackages, route }
      : null;
  const rail = !preview ? null : payRail ? payRail(preview) : (fixedRail?.(preview) ?? null);

  async function execute() {
    if (busy || !preview || preview.blocker || !choice) return;
    setBusy(true);
    const res = await run(reason, choice);
    setBusy(false);
    if (!res) return;
    setPreview(null);
    setReason('');
    pushToast('success', `已退款 ${formatFen(res.amountFen)}：${refundStatusText(res.status, res.rail)}`);
    await router.reload();
  }
  return (
    <>
      <button
        type="button"
        className={`btn border border-rose-300 text-rose-700 hover:bg-rose-50 ${buttonClassName}`}
        onClick={open}
        data-testid={testId}
      >
        退款
      </button>
      <Dialog
        open={preview !== null}
        title={title}
        width={wide ? 'max-w-2xl' : 'max-w-md'}
        onClose={() => setPreview(null)}
        onConfirm={execute}
        confirmText={busy ? '退款中…' : choice ? `确认退款 ${formatFen(choice.amountFen)}` : '确认退款'}
      >
        {preview && (
          <div className="max-h-[65vh] space-y-3 overflow-y-auto" data-testid={`${testId}-preview`}>
            {preview.blocker ? (
              <p className="rounded bg-amber-50 p-2 text-amber-800">不能退款：{preview.blocker}</p>
            ) : (
              <>
                {partial && inFlight === undefined && (
                  <>
                    {partial.above(preview, fill)}
                    <label className="block">
                      <span className="mb-1 block text-slate-600">
                        退款金额（元，最多 {formatFen(preview.amountFen)}）
                      </span>
                      <input
                        className="input"
                        inputMode="decimal"
                        value={amountText}
                        onChange={(e) => setAmountText(e.target.value)}
                        data-testid={`${testId}-amount`}
                      />
                      {amountError && <span className="mt-1 block text-xs text-rose-600">{amountError}</span>}
                    </label>
                    {choice && !choice.isFinal && (
                      <label className="flex items-center gap-2">
                        <input
                          type="checkbox"
                          checked={endPackages}
                          onChange={(e) => setEndPackages(e.target.checked)}
                          data-testid={`${testId}-end-packages`}
                        />
                        同时停用该订单新建的套餐
                      </label>
                    )}
                  </>
                )}
                {payRail && rail !== 'balance' && (
                  <fieldset className="space-y-1" data-testid={`${testId}-route`}>
                    <legend className="mb-1 text-slate-600">退款去向</legend>
                    {(
                      [
                        ['original', `原路退回（${REFUND_RAIL_NAME[rail ?? 'wechat']}）`],
                        ['balance', '退回账户余额（立即到账，可用于下次购买）'],
                      ] as const
                    ).map(([v, label]) => (
                      <label key={v} className="flex items-center gap-2">
                        <input
                          type="radio"
                          name={`${testId}-route`}
                          value={v}
                          checked={route === v}
                          onChange={() => setRoute(v)}
                        />
                        {label}
                      </label>
                    ))}
                  </fieldset>
                )}
                <p data-testid={`${testId}-summary`}>
                  {!choice
                    ? '退款 '
                    : !choice.isFinal
                      ? '部分退款 '
                      : choice.amountFen === fullFen(preview)
                        ? '全额退款 '
                        : '退还剩余全部可退金额 '}
                  <strong className="text-rose-600">{choice ? formatFen(choice.amountFen) : '—'}</strong>，
                  {refundRouteText(payRail ? refundRail(route, rail) : rail)}
                  {amountNote}。
                </p>
                {choice && (
                  <ul className="list-disc space-y-1 pl-5 text-slate-600">
                    {effects(preview, choice)}
                    {preview.liveRefund && (
                      <li>已有处理中的退款 {preview.liveRefund.outRefundNo}，将用同一退款单号、同一金额重新提交。</li>
                    )}
                  </ul>
                )}
                <label className="block">
                  <span className="mb-1 block text-slate-600">退款原因（付款人可见，最多80个字）</span>
                  <textarea
                    className="input min-h-16"
                    maxLength={80}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                  />
                </label>
              </>
            )}
          </div>
        )}
      </Dialog>
    </>
  );
}

type OrderPreview = Awaited<ReturnType<typeof refundPreview>>;

/** The packages' usage and the amounts: 实付 / 已退 / 可退 and the pro-rata suggestion the operator may take. */
function UsageView({ p, fill }: { p: OrderPreview; fill: (fen: number) => void }) {
  return (
    <div className="space-y-2" data-testid="refund-usage">
      <p className="text-slate-600">
        实付 {formatFen(p.payFen)} · 已退 {formatFen(p.refundedFen)} · 可退{' '}
        <strong className="text-ink">{formatFen(p.refundableFen)}</strong>
      </p>
      {p.usage.length === 0 ? (
        <p className="text-xs text-slate-500">
          该订单未新建套餐（续费、加量、改期），无法按使用比例计算，请自行填写金额。
        </p>
      ) : (
        <ul className="space-y-1 rounded-lg bg-slate-50 p-2 text-xs text-slate-600">
          {p.usage.map((u) => (
            <li key={u.id}>
              <span className="font-medium text-ink">
                #{u.id} {u.name}
              </span>
              ：
              {u.ips
                ? `IP 已用 ${formatCount(u.ips.used)} / 剩余 ${formatCount(u.ips.left)}（共 ${formatCount(u.ips.total)}）；`
                : ''}
              天数 已用 {u.days.used} / 剩余 {u.days.left}（共 {u.days.total}）；未使用约{' '}
              {(u.unusedBp / 100).toFixed(0)}%
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {p.suggestedFen !== null && (
          <button
            type="button"
            className="btn-outline px-3 py-1 text-xs"
            onClick={() => fill(p.suggestedFen ?? 0)}
            data-testid="refund-suggested"
          >
            按未使用比例 {formatFen(p.suggestedFen)}
          </button>
        )}
        <button type="button" className="btn-outline px-3 py-1 text-xs" onClick={() => fill(p.refundableFen)}>
          全部可退 {formatFen(p.refundableFen)}
        </button>
      </div>
    </div>
  );
}

export function RefundPanel({ orderNo }: { orderNo: string }) {
  return (
    <RefundFlow<OrderPreview>
      title="退款确认"
      testId="refund"
      wide
      load={() => consoleApi.call('Admin.RefundPreview', { orderNo })}
      run={(reason, c) =>
        consoleApi.call('Order.RefundByOrderNo', {
          orderNo,
          reason,
          amountFen: c.amountFen,
          endPackages: c.endPackages,
          route: c.route,
        })
      }
      payRail={(p) => p.payRail}
      partial={{
        // All that is refundable, as before partial refunds: the pro-rata amount is one click away, never a surprise.
        prefillFen: (p) => p.refundableFen,
        above: (p, fill) => <UsageView p={p} fill={fill} />,
      }}
      effects={(p, c) => (
        <>
          <li>
            {c.isFinal
              ? PACKAGE_RULE_TEXT.final
              : c.endPackages
                ? PACKAGE_RULE_TEXT.partialEnd
                : PACKAGE_RULE_TEXT.partialKeep}
          </li>
          {(c.isFinal || c.endPackages) && (
            <li>
              停用该订单新建的套餐：
              {p.packagesDisabled.length
                ? p.packagesDisabled.map((x) => `#${x.id} ${x.name}`).join('、')
                : '无（续费、加量、改期不回收）'}
            </li>
          )}
          {c.isFinal && <li>冲销推广佣金：{p.commissionReversedFen ? formatFen(p.commissionReversedFen) : '无'}</li>}
          <li>
            优惠券：
            {!p.coupon
              ? '该订单未使用优惠券'
              : !c.isFinal
                ? `「${p.coupon.name}」仍按已使用计（部分退款不退回）`
                : p.coupon.returnable
                  ? `「${p.coupon.name}」退回客户账户（有效期至 ${formatDateTime(p.coupon.expiresAt)}）`
                  : `「${p.coupon.name}」已过期，不退回`}
          </li>
          <li className="text-xs text-slate-500">{COUPON_RULE_TEXT} 客户会收到一条站内通知。</li>
        </>
      )}
    />
  );
}
