// PayOrder.Quote says what each coupon the customer may still receive would save on this order (docs/decisions/231),
// so the buy page can say when receiving one beats the coupon applied.
import { beforeEach, describe, expect, it } from 'vitest';
import { callApi } from '../helpers/api';
import { resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';

beforeEach(resetWithCatalogue);

const BIG = { kind: 'buy' as const, mealId: 101_020, units: 1 }; // ¥180.00, 15% off -> ¥153.00
const NEW_USER = 1; // ¥5, 满¥10.00, one per customer
const NINE_TENTHS = 2; // 9折, 满¥50.00, two per customer

describe('PayOrder.Quote receivableSavings', () => {
  it('names the 9折 coupon as saving ¥15.30 beside the ¥5 one held, and drops a coupon at its per-customer limit', async () => {
    const cookie = await verifiedBuyer('13800024001');
    const quote = async () => (await callApi('PayOrder.Quote', { request: BIG }, { cookie })).body.P;
    expect((await quote())?.receivableSavings).toEqual([
      { couponId: NINE_TENTHS, reductionFen: 1530 },
      { couponId: NEW_USER, reductionFen: 500 },
    ]);
    expect((await callApi('Coupon.Receive', { couponId: NEW_USER }, { cookie })).body.E).toBeUndefined();
    const q = await quote();
    expect(q?.coupon).toBeNull();
    expect(q?.applicableCoupons.map((c) => c.reductionFen)).toEqual([500]);
    expect(q?.receivableSavings).toEqual([{ couponId: NINE_TENTHS, reductionFen: 1530 }]);
    // Received twice (its limit), the 9折 coupon is held, not offered: the best held is applied as the engine's best.
    await callApi('Coupon.Receive', { couponId: NINE_TENTHS }, { cookie });
    await callApi('Coupon.Receive', { couponId: NINE_TENTHS }, { cookie });
    const after = await quote();
    expect(after?.receivableSavings).toEqual([]);
    expect(after?.applicableCoupons[0]).toMatchObject({ name: '全场9折券', reductionFen: 1530 });
  });

  it('is empty for a visitor and for an order under every threshold', async () => {
    const visitor = await callApi('PayOrder.Quote', { request: BIG });
    expect(visitor.body.P?.receivableSavings).toEqual([]);
    const cookie = await verifiedBuyer('13800024002');
    const small = { kind: 'buy' as const, mealId: 101_000, units: 1 }; // ¥10.00 list: the ¥5 one only
    const q = (await callApi('PayOrder.Quote', { request: small }, { cookie })).body.P;
    expect(q?.receivableSavings).toEqual([{ couponId: NEW_USER, reductionFen: 500 }]);
  });
});
