// Payload shapes of the commerce actions as the pages use them; engine types come in as type-only imports (erased).
import type { LineTerms } from '../../server/domain/checkout';

export interface MealViewData {
  id: number;
  productType: number;
  billingMethod: number;
  name: string;
  ipDurationMinutes: number;
  size: number;
  periodDays: number;
  priceFen: number;
  isOverseas: boolean;
  payFen: number;
  discountPercent: number;
  bonusPercent: number;
  activityName: string | null;
  tag: string | null;
}

export interface CatalogueView {
  type: number;
  meals: MealViewData[];
  ipTimes: { minutes: number; label: string }[];
  regions: { id: number; name: string; province: string; isOverseas: boolean }[];
}

/** One line's terms from PayOrder.Quote: the engine's own type (a type-only import, erased from the bundle). */
export type QuoteTerms = LineTerms;

export interface QuoteView {
  listFen: number;
  discountFen: number;
  creditFen: number;
  couponFen: number;
  payFen: number;
  title: string;
  bestCouponId: number | null;
  applicableCoupons: { id: number; name: string; reductionFen: number; expiresAt: number }[];
  coupon: { id: number; name: string } | null;
  terms: QuoteTerms[];
}

export interface OverviewView {
  meaDiscountMax: Record<string, number>;
  mealSendMax: Record<string, number>;
  mealMinPrice: Record<string, number>;
}

export interface UpgradablePackage {
  id: number;
  name: string;
  productType: number;
  billingMethod: number;
  totalCount: number;
  remainingCount: number;
  dailyLimit: number;
  ipCount: number;
  expiresAt: number;
  state: number;
  renewable: boolean;
  mergeable: boolean;
  creditFen: number;
}
