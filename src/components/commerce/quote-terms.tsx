// What an order delivers and what it costs, line by line, from the pricing engine's quote: validity, IP duration,
// volume (bonus included and named), then each amount on its own line. Zero amounts are not shown.
import { durationLabel, periodLabel } from '../../lib/commerce';
import { formatCount, formatFen } from '../../lib/format';
import type { QuoteTerms } from './types';

const n = formatCount;
const dedicatedType = (t: number) => t === 30 || t === 50;

/** 「购买后1年（365天）内有效，IP用完或到期即止」 and its siblings: how long the purchase lasts. */
export function validityText(t: Pick<QuoteTerms, 'productType' | 'billingMethod' | 'days'>): string {
  const span = t.days % 365 === 0 || t.days % 30 === 0 ? `${periodLabel(t.days)}（${t.days}天）` : `${t.days}天`;
  if (dedicatedType(t.productType)) return `${span}，自支付成功起计算，到期可续费`;
  if (t.billingMethod === 1) return `购买后${span}内有效，IP用完或到期即止`;
  return `${span}，自支付成功起计算；每日额度当日有效，不累计到次日`;
}

/** The volume a line delivers, bonus included, with the bonus named. */
export function volumeText(t: QuoteTerms): { label: string; value: string } {
  if (dedicatedType(t.productType)) return { label: 'IP个数', value: `${n(t.ipCount)}个独享IP` };
  if (t.billingMethod === 1) {
    return {
      label: 'IP总数',
      value: `${n(t.count)}个${t.bonusVolume > 0 ? `（含活动赠送${n(t.bonusVolume)}个）` : ''}`,
    };
  }
  return {
    label: '每日IP数',
    value: `${n(t.dailyLimit)}个/天${t.bonusVolume > 0 ? `（含活动赠送${n(t.bonusVolume)}个/天）` : ''}`,
  };
}

/** A label and a value; `money` lines keep the amount on one line and let a long label wrap instead. */
function Line({
  label,
  value,
  testId,
  tone,
  money = false,
}: {
  label: string;
  value: string;
  testId?: string;
  tone?: string;
  money?: boolean;
}) {
  return (
    <div className="flex justify-between gap-3" data-testid={testId}>
      <dt className={`text-slate-500 ${money ? 'min-w-0' : 'shrink-0'}`}>{label}</dt>
      <dd className={`text-right ${money ? 'shrink-0 whitespace-nowrap' : ''} ${tone ?? 'text-ink'}`}>{value}</dd>
    </div>
  );
}

/** The delivered terms of each line of a quote. */
export function QuoteTermsList({ terms }: { terms: QuoteTerms[] }) {
  return (
    <div className="space-y-3" data-testid="quote-terms">
      {terms.map((t, i) => {
        const vol = volumeText(t);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never reorder and may share a name
          <dl key={`${t.name}-${i}`} className="space-y-2 text-sm">
            <Line label="套餐" value={t.name} />
            <Line label={vol.label} value={vol.value} testId="term-volume" />
            {t.bonusVolume > 0 && (
              <Line
                label={`活动赠量${t.activityName ? `（${t.activityName}）` : ''}`}
                value={`+${n(t.bonusVolume)}个${t.billingMethod === 2 ? '/天' : ''}（赠量${t.bonusPercent}%）`}
                tone="text-rose-600"
                testId="term-bonus"
                money
              />
            )}
            {!dedicatedType(t.productType) && (
              <Line label="单个IP时长" value={`${durationLabel(t.ipDurationMinutes)}（提取后可用时长）`} />
            )}
            <Line label="有效期" value={validityText(t)} testId="term-validity" />
          </dl>
        );
      })}
    </div>
  );
}

/** The money lines shared by the quote and the order detail: 原价, 活动优惠, 升级抵扣, 优惠券 (only the non-zero ones). */
export function AmountLines(a: {
  listFen: number;
  discountFen: number;
  creditFen: number;
  couponFen: number;
  activityLabel?: string | null;
  couponName?: string | null;
}) {
  return (
    <>
      <Line label="原价" value={formatFen(a.listFen)} testId="amount-list" money />
      {a.discountFen > 0 && (
        <Line
          label={`活动优惠${a.activityLabel ? `（${a.activityLabel}）` : ''}`}
          value={`-${formatFen(a.discountFen)}`}
          tone="text-rose-600"
          testId="amount-discount"
          money
        />
      )}
      {a.creditFen > 0 && (
        <Line label="升级抵扣" value={`-${formatFen(a.creditFen)}`} tone="text-rose-600" testId="amount-credit" money />
      )}
      {a.couponFen > 0 && (
        <Line
          label={`优惠券${a.couponName ? `（${a.couponName}）` : ''}`}
          value={`-${formatFen(a.couponFen)}`}
          tone="text-rose-600"
          testId="amount-coupon"
          money
        />
      )}
    </>
  );
}

/** 「短效按量限时折扣 · 折扣15%」 for the discount line of a quote with one activity. */
export function activityLabel(terms: QuoteTerms[]): string | null {
  const withDiscount = terms.filter((t) => t.discountFen > 0);
  if (withDiscount.length !== 1) return null;
  const t = withDiscount[0];
  if (!t) return null;
  return [t.activityName, t.discountPercent ? `折扣${t.discountPercent}%` : null].filter(Boolean).join(' · ');
}
