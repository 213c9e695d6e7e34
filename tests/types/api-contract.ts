// Type-level tests of the /api contract, checked by `npm run typecheck` (tsc includes tests/): the client is typed
// from the action registry, so a wrong action name, a wrong input or a misuse of an action's output fails the compile.
// Every `@ts-expect-error` below must meet an error, or tsc reports the directive itself as unused.
import type { ApiClient } from '../../src/lib/api-core';

declare const api: ApiClient;

export async function contractChecks(): Promise<void> {
  // @ts-expect-error an action the registry does not have
  await api.call('Coupon.NoSuchAction', {});

  // @ts-expect-error a required input is missing
  await api.call('User.Login');

  // @ts-expect-error a field of the wrong type
  await api.call('Coupon.GetList', { state: '1' });

  // @ts-expect-error a value outside the schema's literals
  await api.call('Coupon.GetList', { state: 4 });

  // @ts-expect-error a field the schema does not declare
  await api.call('Coupon.Receive', { couponId: 1, extra: true });

  // Defaults make a field optional for the caller (z.input, not z.output).
  await api.call('Coupon.GetList', {});

  const coupons = await api.call('Coupon.GetList', { state: 1 }, { silent: true });
  if (coupons !== false) {
    const first = coupons.list[0];
    if (first) {
      const fen: number = first.thresholdFen;
      void fen;
      // @ts-expect-error the output has no such field
      void first.priceFen;
      // @ts-expect-error the output's field has another type
      const name: number = first.name;
      void name;
    }
  }

  // @ts-expect-error without a check for false the output cannot be used
  void (await api.call('Coupon.GetReceivable')).list;

  // With `raw`, a business error comes back as {E} instead of false, and must be told apart from the output.
  const quote = await api.call('Coupon.Receive', { couponId: 1 }, { raw: true });
  if (quote !== false) {
    // @ts-expect-error {E} has no id until narrowed
    void quote.id;
    if ('E' in quote) {
      const text: string = quote.E;
      void text;
    } else {
      const id: number = quote.id;
      void id;
    }
  }
  // A `raw` flag known only at run time keeps {E} in the result.
  const maybeRaw = { raw: Math.random() > 0.5 };
  const either = await api.call('Coupon.Receive', { couponId: 1 }, maybeRaw);
  // @ts-expect-error {E} may be there
  if (either !== false) void either.id;

  // Without `raw` there is no {E} in the result.
  const plain = await api.call('Coupon.Receive', { couponId: 1 });
  // @ts-expect-error E is not part of a call without raw
  if (plain !== false) void plain.E;
}
