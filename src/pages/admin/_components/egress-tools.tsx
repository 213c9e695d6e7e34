'use client';
// Egress rules (ops): add a rule (kind, value, note) and delete one. Every node applies the rules at its next contract
// pull (docs/decisions/194).
import { field, useFormWrite } from './admin-write';
import { ReasonAction } from './reason-action';

const KINDS = ['domain', 'cidr', 'port', 'smtp_product'] as const;
type Kind = (typeof KINDS)[number];

export function EgressRuleForm() {
  const { busy, submit } = useFormWrite(
    'Admin.EgressRuleAdd',
    (f) => ({
      kind: KINDS.find((k) => k === field(f, 'kind')) ?? ('domain' as Kind),
      value: field(f, 'value'),
      note: field(f, 'note'),
    }),
    (res) => `已添加规则 ${res.value}，各节点下次拉取合约时生效`,
  );
  return (
    <form
      onSubmit={submit}
      className="grid gap-2 sm:grid-cols-2 lg:grid-cols-[12rem_1fr_1fr_auto]"
      data-testid="egress-form"
    >
      <select name="kind" className="input" aria-label="规则类型" defaultValue="domain">
        <option value="domain">屏蔽域名（含子域名）</option>
        <option value="cidr">屏蔽网段</option>
        <option value="port">屏蔽端口</option>
        <option value="smtp_product">允许邮件端口的产品</option>
      </select>
      <input
        name="value"
        className="input"
        placeholder="如 example.com、203.0.113.0/24、6667、30"
        aria-label="规则内容"
        required
      />
      <input name="note" className="input" placeholder="备注（可选）" aria-label="备注" maxLength={100} />
      <button type="submit" className="btn-primary" disabled={busy}>
        添加规则
      </button>
    </form>
  );
}

export function EgressRuleDelete({ id, label }: { id: number; label: string }) {
  return (
    <ReasonAction
      label="删除"
      title="删除出口规则"
      description={`删除规则「${label}」？各节点下次拉取合约时不再执行。`}
      action="Admin.EgressRuleDelete"
      params={{ id }}
      field={null}
      done="已删除"
      buttonClassName="btn-ghost px-2 py-1 text-xs text-rose-600 hover:bg-rose-50"
    />
  );
}
