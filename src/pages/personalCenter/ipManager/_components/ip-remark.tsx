'use client';
// Inline remark editing for a fixed IP (FixedAllocation.Remark).
import { useState } from 'react';
import { api } from '../../../../state/api';
import { pushToast } from '../../../../state/toast';

export function IpRemark({ id, initial }: { id: number; initial: string }) {
  const [value, setValue] = useState(initial);
  const [editing, setEditing] = useState(false);
  async function save() {
    if (await api.call('FixedAllocation.Remark', { id, remark: value })) {
      setEditing(false);
      pushToast('success', '备注已保存');
    }
  }
  if (!editing) {
    return (
      <button
        type="button"
        className="text-left text-slate-600 hover:text-brand-600"
        onClick={() => setEditing(true)}
        title="点击修改备注"
      >
        {value || <span className="text-slate-300">添加备注</span>}
      </button>
    );
  }
  return (
    <span className="flex items-center gap-2">
      <input className="input w-36 py-1" maxLength={50} value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="button" className="text-brand-600" onClick={save}>
        保存
      </button>
    </span>
  );
}
