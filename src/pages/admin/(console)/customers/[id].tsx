// /admin/customers/{id}: one customer — status and lock, identity (masked), packages, orders, white list, extraction,
// invitations, the account balance and its ledger (finance adjusts it with a reason), the audit history — with
// suspend / restore / unlock (each with a reason).
import { PRODUCT_LABEL } from '../../../../lib/commerce';
import { formatDateTime, formatFen } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { CustomerBalance } from './_components/customer-balance';
import { CustomerTools } from './_components/customer-tools';
import { CUSTOMER_STATUS_TEXT, ORDER_STATE_LABEL, PACKAGE_STATE_TEXT } from '../../_components/labels';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { ReasonAction } from '../../_components/reason-action';
import { ACCOUNT_STATUS } from '../../../../lib/console-states';
import { COMPANY_STATE } from '../../../../lib/company-states';

/** A package's name already starts with its product label (packageName); prefix the label only when it does not. */
function withProductLabel(productType: number, name: string): string {
  const label = PRODUCT_LABEL[productType] ?? String(productType);
  return name.startsWith(label) ? name : `${label} · ${name}`;
}

export default async function AdminCustomerPage({ id }: { id: string }) {
  const userId = Number(id);
  if (!Number.isInteger(userId) || userId <= 0) return <NoAccess />;
  const d = await load('Admin.CustomerDetail', { userId }, false);
  if (!d) return <p className="card p-6 text-sm text-slate-500">用户不存在或当前角色无权查看。</p>;
  const u = d.user;
  const locked = u.lockedUntil > Date.now();
  return (
    <div className="space-y-4">
      <PageTitle title={`客户 ${u.phone}`}>
        <div className="flex flex-wrap gap-2">
          {u.status === ACCOUNT_STATUS.active ? (
            <ReasonAction
              label="停用账号"
              title="停用客户账号"
              description="停用后该客户立即退出所有登录，提取接口与代理认证立即拒绝。"
              action="Admin.SuspendCustomer"
              params={{ userId: u.id }}
              done="已停用"
              tone="danger"
            />
          ) : (
            <ReasonAction
              label="恢复账号"
              title="恢复客户账号"
              description="恢复后客户可重新登录和提取。"
              action="Admin.RestoreCustomer"
              params={{ userId: u.id }}
              done="已恢复"
            />
          )}
          {(locked || u.failedLogins > 0) && (
            <ReasonAction
              label="解除登录锁定"
              title="解除密码登录锁定"
              description="清除密码错误次数与锁定。"
              action="Admin.UnlockCustomer"
              params={{ userId: u.id }}
              done="已解除锁定"
            />
          )}
        </div>
      </PageTitle>
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title="账号">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm" data-testid="customer-account">
            <dt className="text-slate-500">用户ID</dt>
            <dd>{u.id}</dd>
            <dt className="text-slate-500">状态</dt>
            <dd
              className={u.status === ACCOUNT_STATUS.active ? 'text-emerald-600' : 'text-rose-600'}
              data-testid="customer-status"
            >
              {CUSTOMER_STATUS_TEXT[u.status] ?? u.status}
            </dd>
            <dt className="text-slate-500">密码登录</dt>
            <dd>{locked ? `已锁定至 ${formatDateTime(u.lockedUntil)}` : `正常（连续错误 ${u.failedLogins} 次）`}</dd>
            <dt className="text-slate-500">注册</dt>
            <dd>
              {formatDateTime(u.createdAt)}（{u.sourceType === 2 ? '移动端' : '电脑端'}）
            </dd>
            <dt className="text-slate-500">实名</dt>
            <dd>{d.identity ? `${d.identity.nameMasked} ${d.identity.idMasked}` : '未实名'}</dd>
            <dt className="text-slate-500">企业认证</dt>
            <dd>
              {u.companyAuthState === COMPANY_STATE.approved
                ? '已认证'
                : u.companyAuthState === COMPANY_STATE.pending
                  ? '审核中'
                  : '无'}
            </dd>
            <dt className="text-slate-500">邀请</dt>
            <dd>
              {d.promoter ? `由 #${d.promoter.id}（${d.promoter.phone}）邀请；` : ''}已邀请 {d.invitees} 人
            </dd>
            <dt className="text-slate-500">提取</dt>
            <dd>
              24小时 {d.extraction.calls24h} 次 / {d.extraction.ips24h} 个IP；30天 {d.extraction.calls30d} 次 /{' '}
              {d.extraction.ips30d} 个IP
            </dd>
          </dl>
        </Section>
        <Section title="白名单">
          {d.whiteList.length === 0 ? (
            <p className="text-sm text-slate-400">无</p>
          ) : (
            <ul className="flex flex-wrap gap-2 text-sm">
              {d.whiteList.map((w) => (
                <li
                  key={w.ip}
                  className={`rounded bg-slate-100 px-2 py-0.5 ${w.enabled ? '' : 'line-through opacity-60'}`}
                >
                  {w.ip}
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
      <CustomerBalance userId={u.id} />
      <CustomerTools userId={u.id} />
      <Section title="套餐">
        <ul className="divide-y divide-slate-100 text-sm">
          {d.packages.length === 0 && <li className="text-slate-400">无</li>}
          {d.packages.map((p) => (
            <li key={p.id} className="flex flex-wrap justify-between gap-x-4 py-1.5">
              <span>
                #{p.id} {withProductLabel(p.productType, p.name)}
              </span>
              <span className="text-slate-500">
                {PACKAGE_STATE_TEXT[p.state] ?? p.state} · 剩余 {p.remainingCount} · 到期 {formatDateTime(p.expiresAt)}
              </span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="最近订单">
        <ul className="divide-y divide-slate-100 text-sm">
          {d.orders.length === 0 && <li className="text-slate-400">无</li>}
          {d.orders.map((o) => (
            <li key={o.orderNo} className="flex flex-wrap justify-between gap-x-4 py-1.5">
              <a href={`/admin/orders/${o.orderNo}`} className="break-all text-brand-700 hover:underline">
                {o.orderNo}
              </a>
              <span className="text-slate-500">
                {o.title} · {formatFen(o.payFen)} · {ORDER_STATE_LABEL[o.state] ?? o.state}
              </span>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="操作记录">
        <ul className="divide-y divide-slate-100 text-sm" data-testid="customer-history">
          {d.history.length === 0 && <li className="text-slate-400">无</li>}
          {d.history.map((h) => (
            <li key={h.id} className="py-1.5">
              <span className="text-slate-500">{formatDateTime(h.createdAt)}</span> {h.operatorName} · {h.actionLabel} ·{' '}
              {h.reason}
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
