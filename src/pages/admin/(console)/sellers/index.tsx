// /admin/sellers: sales staff (code for their ?did=…&from=seller links, customers, paid amounts), create and edit
// (?seller=), assign customers by phone or id; a seller's customers (?seller=). Finance writes, support reads.
import type { ActionOutput } from '../../../../lib/api-core';
import { formatFen } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { type FormField, RecordForm } from '../../_components/record-form';

type Detail = ActionOutput<'Admin.SellerDetail'>;

function sellerFields(s?: Detail['seller']): FormField[] {
  return [
    {
      name: 'code',
      label: '销售编码（推广链接中的销售参数）',
      kind: 'text',
      maxLength: 16,
      defaultValue: s?.code ?? '',
    },
    { name: 'name', label: '姓名', kind: 'text', maxLength: 20, defaultValue: s?.name ?? '' },
    { name: 'phone', label: '手机号', kind: 'text', maxLength: 11, defaultValue: s?.phone ?? '' },
    { name: 'enabled', label: '启用', kind: 'bool', defaultValue: s?.enabled ?? true },
  ];
}

export default async function AdminSellersPage({ query }: { query: string }) {
  const res = await load('Admin.SellerList', {}, false);
  if (!res) return <NoAccess />;
  const selected = Number(new URLSearchParams(query).get('seller'));
  const d =
    (Number.isInteger(selected) && selected > 0 ? await load('Admin.SellerDetail', { id: selected }, false) : null) ||
    null;
  return (
    <div className="space-y-4">
      <PageTitle title="销售与推广" />
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="seller-list">
        {res.list.length === 0 && <li className="card p-6 text-sm text-slate-500">还没有销售</li>}
        {res.list.map((s) => (
          <li key={s.id} className="card p-4 text-sm">
            <a href={`/admin/sellers?seller=${s.id}`} className="font-semibold text-brand-700 hover:underline">
              {s.name}
            </a>{' '}
            <span className="text-xs text-slate-400">
              {s.code}
              {s.enabled ? '' : ' · 已停用'}
            </span>
            <p className="mt-1 text-slate-600">
              客户 {s.customers} 个 · 客户已支付 {formatFen(s.paidFen)}
            </p>
            <p className="mt-1 break-all text-xs text-slate-400">推广链接参数：?did={s.code}&amp;from=seller</p>
          </li>
        ))}
      </ul>
      {d ? (
        <Section title={`${d.seller.name} 的客户`}>
          <ul className="mb-4 flex flex-wrap gap-2 text-sm" data-testid="seller-customers">
            {d.customers.length === 0 && <li className="text-slate-400">无</li>}
            {d.customers.map((c) => (
              <li key={c.id}>
                <a href={`/admin/customers/${c.id}`} className="rounded bg-slate-100 px-2 py-0.5 hover:underline">
                  #{c.id} {c.phone}
                </a>
              </li>
            ))}
          </ul>
          <RecordForm
            key={d.seller.id}
            action="Admin.SellerSave"
            fields={[...sellerFields(d.seller), { name: 'reason', label: '修改原因', kind: 'text', maxLength: 200 }]}
            fixed={{ id: d.seller.id }}
            submitLabel="保存销售"
            done="已保存"
          />
        </Section>
      ) : (
        <Section title="新建销售">
          <RecordForm
            action="Admin.SellerSave"
            fields={sellerFields()}
            submitLabel="新建销售"
            done="销售已创建"
            testId="seller-create"
            reset
          />
        </Section>
      )}
      <Section title="分配客户">
        <RecordForm
          action="Admin.SellerAssign"
          fields={[
            {
              name: 'sellerId',
              label: '销售',
              kind: 'select',
              options: [
                ...res.list.filter((s) => s.enabled).map((s) => ({ value: s.id, label: `${s.name}（${s.code}）` })),
                { value: 0, label: '取消分配' },
              ],
              ...(d ? { defaultValue: d.seller.id } : {}),
            },
            {
              name: 'targets',
              label: '客户手机号或用户ID（每行一个，最多200个）',
              kind: 'textarea',
            },
            { name: 'reason', label: '原因（记入操作日志）', kind: 'text', maxLength: 200 },
          ]}
          submitLabel="分配"
          done="已分配"
          testId="seller-assign"
          reset
        />
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
