// The public pages the sitemap lists (help categories and articles are added from D1) and the hero pages.
import { SCENARIOS } from './site';

export const STATIC_PUBLIC_PATHS: string[] = [
  '/',
  '/buy?type=10',
  '/buy?type=40',
  '/buy?type=30',
  '/buy?type=50',
  '/getProxy/10',
  '/getProxy/40',
  '/firmsServer',
  '/demo',
  '/help',
  '/region',
  '/region/data',
  '/rebate',
  '/privacyPolicy',
  '/userAgreement',
  '/login',
  ...SCENARIOS.map((s) => `/businessScen/${s.type}`),
];
