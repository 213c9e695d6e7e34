'use client';
// Operator accounts (admin): create one (initial password told in person; TOTP at their first login), change role or
// status, reset password and second factor. Each change needs a reason except creation.
import { useState } from 'react';
import { OPERATOR_ROLE_LABEL, OPERATOR_ROLES, type OperatorRole } from '../../../../../lib/operator-roles';
import { ReasonAction } from '../../../_components/reason-action';
import { type FormField, RecordForm } from '../../../_components/record-form';
import { ACCOUNT_STATUS } from '../../../../../lib/console-states';

const OPERATOR_FIELDS: FormField[] = [
  { name: 'username', label: '账号', kind: 'text', placeholder: '字母数字', required: true },
  { name: 'displayName', label: '姓名', kind: 'text', required: true },
  {
    name: 'role',
    label: '角色',
    kind: 'select',
    options: OPERATOR_ROLES.map((r) => ({ value: r, label: OPERATOR_ROLE_LABEL[r] })),
    defaultValue: 'support',
  },
  { name: 'password', label: '初始密码', kind: 'text', placeholder: '至少12位', required: true },
];

export function CreateOperatorForm() {
  return (
    <RecordForm
      action="Admin.OperatorCreate"
      fields={OPERATOR_FIELDS}
      submitLabel="新建账号"
      done="已创建，请线下告知初始密码；对方首次登录时绑定动态验证码"
      testId="operator-create"
      reset
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
    />
  );
}

const SMALL = 'btn-ghost px-2 py-1 text-xs';

export function OperatorRowActions({ id, role, status }: { id: number; role: OperatorRole; status: 1 | 2 }) {
  const [nextRole, setNextRole] = useState<OperatorRole>(role);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <select
        className="input w-24 py-1"
        aria-label="角色"
        value={nextRole}
        onChange={(e) => setNextRole(e.target.value as OperatorRole)}
      >
        {OPERATOR_ROLES.map((r) => (
          <option key={r} value={r}>
            {OPERATOR_ROLE_LABEL[r]}
          </option>
        ))}
      </select>
      <ReasonAction
        label="改角色"
        title="修改角色"
        description={`角色改为「${OPERATOR_ROLE_LABEL[nextRole]}」，对方的可见页面与操作随之改变。`}
        action="Admin.OperatorUpdate"
        params={{ id, role: nextRole, status }}
        done="角色已修改"
        buttonClassName={SMALL}
        disabled={nextRole === role}
      />
      <ReasonAction
        label={status === ACCOUNT_STATUS.active ? '停用' : '启用'}
        title={status === ACCOUNT_STATUS.active ? '停用账号' : '启用账号'}
        description={
          status === ACCOUNT_STATUS.active ? '停用后该账号立即无法登录运营后台。' : '启用后该账号可再次登录运营后台。'
        }
        action="Admin.OperatorUpdate"
        params={{
          id,
          role,
          status: status === ACCOUNT_STATUS.active ? ACCOUNT_STATUS.disabled : ACCOUNT_STATUS.active,
        }}
        done={status === ACCOUNT_STATUS.active ? '已停用' : '已启用'}
        buttonClassName={SMALL}
      />
      <ReasonAction
        label="重置密码与验证器"
        title="重置密码与验证器"
        description="设置新的初始密码（请线下告知对方）；对方下次登录时需重新绑定动态验证码。"
        action="Admin.OperatorReset"
        params={{ id }}
        extraField={{ name: 'password', label: '新的初始密码', placeholder: '至少12位' }}
        done="已重置，对方下次登录需重新绑定动态验证码"
        buttonClassName={SMALL}
      />
    </div>
  );
}
