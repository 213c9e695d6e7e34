// The action registry: every /api action by its seed name. Groups live in one file each. It is the /api contract:
// `satisfies` keeps each action's own input and output types, which type the client (src/lib/api-core.ts).
import { accountSettingsActions } from './account-settings';
import { adminArchiveActions } from './admin-archive';
import { adminAuthActions } from './admin-auth';
import { adminCampaignActions } from './admin-campaigns';
import { adminCatalogueActions } from './admin-catalogue';
import { adminConsoleActions } from './admin-console';
import { adminContentActions } from './admin-content';
import { adminCustomerToolActions } from './admin-customer-tools';
import { adminCustomerActions } from './admin-customers';
import { adminEgressActions } from './admin-egress';
import { adminNodeActions } from './admin-nodes';
import { adminOperatorActions } from './admin-operators';
import { adminOrderActions } from './admin-orders';
import { authActions } from './auth';
import { bankTransferActions } from './bank-transfer';
import { recordOperatorActions } from '../domain/operator-action-access';
import { couponActions } from './coupon';
import type { AnyAction } from './define';
import { extractActions } from './extract';
import { helpActions } from './help';
import { noticeActions } from './notices';
import { orderActions } from './order';
import { payOrderActions } from './pay-order';
import { promotionActions } from './promotion';
import { proxyActions } from './proxy';
import { proxyMealActions } from './proxy-meal';
import { proxyUpgradeActions } from './proxy-upgrade';
import { recordActions } from './records';
import { redPacketActions } from './red-packets';
import { redirectActions } from './redirect';
import { siteContentActions } from './site-content';
import { userActions } from './user';
import { visitorActions } from './visitor';
import { welfareActions } from './welfare';
import { whiteListActions } from './white-list';

export const registry = {
  ...userActions,
  ...redirectActions,
  ...helpActions,
  ...siteContentActions,
  ...visitorActions,
  ...proxyActions,
  ...whiteListActions,
  ...extractActions,
  ...recordActions,
  ...proxyMealActions,
  ...payOrderActions,
  ...proxyUpgradeActions,
  ...orderActions,
  ...couponActions,
  ...authActions,
  ...accountSettingsActions,
  ...noticeActions,
  ...welfareActions,
  ...redPacketActions,
  ...promotionActions,
  // Operator console
  ...adminAuthActions,
  ...adminConsoleActions,
  ...adminOperatorActions,
  ...adminCustomerActions,
  ...adminOrderActions,
  ...adminCatalogueActions,
  ...adminCampaignActions,
  ...adminCustomerToolActions,
  ...adminArchiveActions,
  ...adminContentActions,
  ...adminNodeActions,
  ...adminEgressActions,
  ...bankTransferActions,
} satisfies Record<string, AnyAction>;

// The domain rules that follow the actions' access (the audit log's readers) read it from here.
recordOperatorActions(registry);
