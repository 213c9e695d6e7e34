// The action registry: every /api action by its seed name. Groups live in one file each. It is the /api contract:
// `satisfies` keeps each action's own input and output types, which type the client (src/lib/api-core.ts).
import { accountSettingsActions } from './account-settings';
import { consoleArchiveActions } from './console-archive';
import { consoleAuthActions } from './console-auth';
import { consoleBalanceActions } from './console-balance';
import { consoleCampaignActions } from './console-campaigns';
import { consoleCatalogueActions } from './console-catalogue';
import { consoleDashboardActions } from './console-dashboard';
import { consoleContentActions } from './console-content';
import { consoleCustomerToolActions } from './console-customer-tools';
import { consoleCustomerActions } from './console-customers';
import { consoleEgressActions } from './console-egress';
import { consoleInvoiceActions } from './console-invoices';
import { consoleNodeActions } from './console-nodes';
import { consoleOperatorActions } from './console-operators';
import { consoleOrderActions } from './console-orders';
import { authActions } from './auth';
import { balanceActions } from './balance';
import { bankTransferActions } from './bank-transfer';
import { recordOperatorActions } from '../domain/operator-action-access';
import { couponActions } from './coupon';
import type { AnyAction } from './define';
import { extractActions } from './extract';
import { helpActions } from './help';
import { invoiceActions } from './invoices';
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
  ...balanceActions,
  ...proxyUpgradeActions,
  ...orderActions,
  ...couponActions,
  ...authActions,
  ...accountSettingsActions,
  ...noticeActions,
  ...welfareActions,
  ...redPacketActions,
  ...promotionActions,
  ...invoiceActions,
  // Operator console
  ...consoleAuthActions,
  ...consoleDashboardActions,
  ...consoleOperatorActions,
  ...consoleCustomerActions,
  ...consoleOrderActions,
  ...consoleCatalogueActions,
  ...consoleCampaignActions,
  ...consoleCustomerToolActions,
  ...consoleBalanceActions,
  ...consoleArchiveActions,
  ...consoleContentActions,
  ...consoleNodeActions,
  ...consoleEgressActions,
  ...consoleInvoiceActions,
  ...bankTransferActions,
} satisfies Record<string, AnyAction>;

// The domain rules that follow the actions' access (the audit log's readers) read it from here.
recordOperatorActions(registry);
