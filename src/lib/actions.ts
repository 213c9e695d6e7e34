// Action facts the clients need without importing the server registry: which actions may be cached.
// tests/unit/actions-list.test.ts keeps this in step with the registry's own `cacheable` flags.

export const CACHEABLE_ACTIONS: ReadonlySet<string> = new Set<string>([
  // Public site (help centre, shell content)
  'HelpRenovation.GetInnerNewsArticle',
  'HelpRenovation.ArticleSecondCategoryList',
  'HelpRenovation.ArticleSecondCategoryListV2',
  'HelpRenovation.HotArticleTitleList',
  'HelpRenovation.AllArticleTitleList',
  'HelpRenovation.GetArticleBykw',
  'HelpRenovation.GetArticleById',
  'HelpRenovation.FirstArticleList',
  'HelpRenovation.GetArticleOfBuyShow',
  'HelpRenovation.GetTypeById',
  'Link.queryLinks',
  'Notice.getShowHomeNotice',
  'Activity.GetActivityMarketingImg',
  'Config.CurrentMessageShow',
  'Region.GetCoverage',
  // Proxy delivery (pool regions)
  'Extract.GetLongRegularRegion',
  'Proxymeal.GetLongRegularRegion',
  // Commerce (catalogue)
  'ProxyMeal.GetMealOverview',
  'ProxyMeal.GetMealWithActivity',
  'ProxyUpgrade.GetAllProxyTime',
  // Trust and growth: real-name, account settings, notices, welfare, red packets, promotion
  'ProxyMeal.GetWelfareMeal',
  'Config.UserPromotionMaterial',
]);

/** True when clients may keep this action's result in the 5-minute cache. */
export const isCacheableAction = (name: string): boolean => CACHEABLE_ACTIONS.has(name);
