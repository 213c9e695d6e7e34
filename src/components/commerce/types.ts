// Payload shapes of the commerce actions as the pages use them: named views of the registry's own types (type-only,
// erased from the bundle), so a change to an action's output breaks its callers' compile instead of drifting.
import type { ActionInput, ActionOutput } from '../../lib/api-core';

export type CatalogueView = ActionOutput<'ProxyMeal.GetMealWithActivity'>;
export type MealViewData = CatalogueView['meals'][number];
export type OverviewView = ActionOutput<'ProxyMeal.GetMealOverview'>;

/** What PayOrder.Quote prices: a purchase, batch, renewal, top-up, extension or merge. */
export type QuoteRequest = ActionInput<'PayOrder.Quote'>['request'];
export type QuoteView = ActionOutput<'PayOrder.Quote'>;
/** One line's terms from PayOrder.Quote (the engine's LineTerms). */
export type QuoteTerms = QuoteView['terms'][number];

export type UpgradablePackage = ActionOutput<'ProxyUpgrade.getProxyList'>['list'][number];
