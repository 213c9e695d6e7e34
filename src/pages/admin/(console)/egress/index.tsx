// /admin/egress: the operator's egress rules (ops): blocked domains (with their subdomains), CIDRs and ports, and the
// product types allowed the SMTP ports. Every node applies them at its next contract pull, on top of the fixed policy
// (no private, loopback, link-local or reserved targets, nor the node's own addresses; docs/decisions/193-194).
import type { ActionOutput } from '../../../../lib/api-core';
import { PRODUCT_LABEL } from '../../../../lib/commerce';
import { formatDateTime } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { EGRESS_RULE_LABEL } from '../../../../lib/egress-rules';
import { type Column, ListTable } from '../../_components/console-list';
import { EgressRuleDelete, EgressRuleForm } from './_components/egress-tools';
import { NoAccess, PageTitle, Section } from '../../_components/parts';

type RuleRow = ActionOutput<'Admin.EgressRuleList'>['list'][number];

const shown = (r: RuleRow) =>
  r.kind === 'smtp_product' ? `${r.value} ${PRODUCT_LABEL[Number(r.value)] ?? ''}`.trim() : r.value;

const COLUMNS: Column<RuleRow>[] = [
  { head: '规则', kind: 'title', className: 'break-all font-mono text-xs', cell: shown },
  { head: '类型', cell: (r) => EGRESS_RULE_LABEL[r.kind] },
  { head: '备注', className: 'break-all', cell: (r) => r.note || '—' },
  { head: '添加时间', cell: (r) => formatDateTime(r.createdAt) },
  { head: '操作', kind: 'actions', cell: (r) => <EgressRuleDelete id={r.id} label={shown(r)} /> },
];

export default async function AdminEgressPage() {
  const res = await load('Admin.EgressRuleList', {}, false);
  if (!res) return <NoAccess />;
  return (
    <div className="space-y-4">
      <PageTitle title="出口规则" />
      <Section title="添加规则">
        <EgressRuleForm />
        <p className="mt-2 text-xs text-slate-500">
          节点始终拒绝内网、本机、链路本地（含云元数据 169.254.169.254）、组播与保留地址，以及邮件端口 25/465/587。
          这里的规则在此之上生效：屏蔽域名含其全部子域名；「允许邮件端口的产品」填产品类型（10 短效动态、40 长效静态、30
          固定、50 优质），该产品的连接可访问邮件端口。各节点在下次拉取合约（约5秒）时生效。
        </p>
      </Section>
      <Section title="规则列表">
        <ListTable
          data-testid="egress-table"
          rows={res.list}
          rowKey={(r) => r.id}
          empty="没有规则"
          pad="px-3"
          columns={COLUMNS}
        />
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
