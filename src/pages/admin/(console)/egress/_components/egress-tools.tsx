'use client';
// Egress rules (ops): add a rule (kind, value, note) and delete one. Every node applies the rules at its next contract
// pull (docs/decisions/194).
import { ReasonAction } from '../../../_components/reason-action';
import { choices, type FormField, RecordForm } from '../../../_components/record-form';

const EGRESS_FIELDS: FormField[] = [
  {
    name: 'kind',
    label: '规则类型',
    kind: 'select',
    options: choices([
      ['domain', '屏蔽域名（含子域名）'],
      ['cidr', '屏蔽网段'],
      ['port', '屏蔽端口'],
      ['smtp_product', '允许邮件端口的产品'],
    ]),
  },
  {
    name: 'value',
    label: '规则内容',
    kind: 'text',
    placeholder: '如 example.com、203.0.113.0/24、6667、30',
    required: true,
  },
  { name: 'note', label: '备注', kind: 'text', placeholder: '可选', maxLength: 100 },
];

export function EgressRuleForm() {
  return (
    <RecordForm
      action="Admin.EgressRuleAdd"
      fields={EGRESS_FIELDS}
      submitLabel="添加规则"
      done={(res) => `已添加规则 ${res.value}，各节点下次拉取合约时生效`}
      testId="egress-form"
      reset
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[12rem_1fr_1fr_auto]"
    />
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
