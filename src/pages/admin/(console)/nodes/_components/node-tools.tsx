'use client';
// Delivery leaves: create a node (its signing secret is shown once, here, and never again), disable / enable with a
// reason, rotate the secret with a reason, keeping the old one 24 hours or not (the new secret is shown once).
import { useState } from 'react';
import { useRouter } from 'waku/router/client';
import { Dialog } from '../../../../../components/dialog';
import { shanghaiMinute } from '../../../../../lib/time';
import { pushToast } from '../../../../../state/toast';
import { consoleApi } from '../../../_components/console-api';
import { ReasonAction } from '../../../_components/reason-action';
import { choices, type FormField, RecordForm } from '../../../_components/record-form';

function SecretOnce({
  title,
  nodeId,
  secret,
  note,
  onClose,
}: {
  title: string;
  nodeId: number;
  secret: string;
  /** What happens to the replaced secret (rotation only). */
  note?: string;
  onClose: () => void;
}) {
  return (
    <Dialog open title={title} onClose={onClose} onConfirm={onClose} confirmText="我已保存" mustConfirm>
      <p className="mb-2">密钥只显示这一次，关闭后无法再次查看（遗失只能轮换）。请写入节点配置：</p>
      {note ? (
        <p className="mb-2 rounded-lg bg-amber-50 p-2 text-xs text-amber-800" data-testid="node-secret-note">
          {note}
        </p>
      ) : null}
      <dl className="space-y-2 rounded-lg bg-slate-50 p-3 font-mono text-xs" data-testid="node-secret-box">
        <div>
          <dt className="text-slate-500">NODE_ID</dt>
          <dd className="select-all break-all text-slate-900">{nodeId}</dd>
        </div>
        <div>
          <dt className="text-slate-500">NODE_SECRET</dt>
          <dd className="select-all break-all text-slate-900" data-testid="node-secret">
            {secret}
          </dd>
        </div>
      </dl>
      <button
        type="button"
        className="btn-outline mt-3"
        onClick={() => {
          void navigator.clipboard?.writeText(secret).then(
            () => pushToast('success', '已复制'),
            () => undefined,
          );
        }}
      >
        复制密钥
      </button>
    </Dialog>
  );
}

function useSecretDialog() {
  const router = useRouter();
  const [shown, setShown] = useState<{ title: string; nodeId: number; secret: string; note?: string } | null>(null);
  const dialog = shown ? (
    <SecretOnce
      {...shown}
      onClose={() => {
        setShown(null);
        void router.reload();
      }}
    />
  ) : null;
  return { show: setShown, dialog };
}

const NODE_FIELDS: FormField[] = [
  { name: 'name', label: '节点名称', kind: 'text', placeholder: '如 gz-telecom-01', required: true },
];

export function CreateNodeForm() {
  const { show, dialog } = useSecretDialog();
  return (
    <>
      <RecordForm
        action="Admin.NodeCreate"
        fields={NODE_FIELDS}
        submitLabel="新建节点"
        done="节点已创建"
        testId="node-create"
        reset
        className="grid gap-3 sm:grid-cols-[minmax(0,20rem)_auto]"
        after={(res) => show({ title: '节点已创建', nodeId: res.id, secret: res.secret })}
      />
      {dialog}
    </>
  );
}

/**
 * Rotating a secret (docs/decisions/162): by default the old secret keeps working for 24 hours, or until the node's
 * first call with the new one, so the node stays online while its configuration is updated; for a leaked secret the
 * old one can be refused at once.
 */
function RotateDialog({
  id,
  name,
  onClose,
  onRotated,
}: {
  id: number;
  name: string;
  onClose: () => void;
  onRotated: (r: { id: number; secret: string; note: string }) => void;
}) {
  const [reason, setReason] = useState('');
  const [immediate, setImmediate] = useState(false);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    if (busy) return;
    setBusy(true);
    const res = await consoleApi.call('Admin.NodeRotateSecret', { id, reason, immediate });
    setBusy(false);
    if (!res) return;
    onRotated({
      id: res.id,
      secret: res.secret,
      note: res.previousValidUntil
        ? `旧密钥在 ${shanghaiMinute(res.previousValidUntil)} 前仍然有效；节点改用新密钥后，旧密钥立即失效。`
        : '旧密钥已立即失效：节点在改用新密钥之前会被拒绝（离线）。',
    });
  }
  return (
    <Dialog
      open
      title={`轮换「${name}」的密钥`}
      onClose={onClose}
      onConfirm={confirm}
      confirmText={busy ? '处理中…' : '轮换'}
    >
      <fieldset className="mb-3 space-y-2" data-testid="rotate-mode">
        <legend className="mb-1 text-slate-600">旧密钥</legend>
        <label className="flex items-start gap-2">
          <input type="radio" name="mode" checked={!immediate} onChange={() => setImmediate(false)} className="mt-1" />
          <span>
            再保留24小时（推荐）
            <span className="block text-xs text-slate-500">
              节点在更新配置前照常工作；节点第一次用新密钥签名后，旧密钥立即失效。
            </span>
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input type="radio" name="mode" checked={immediate} onChange={() => setImmediate(true)} className="mt-1" />
          <span>
            立即失效（密钥泄露时）
            <span className="block text-xs text-slate-500">节点在写入新密钥之前的调用都会被拒绝（离线）。</span>
          </span>
        </label>
      </fieldset>
      <label className="block">
        <span className="mb-1 block text-slate-600">原因（记入操作日志）</span>
        <textarea
          className="input min-h-20"
          value={reason}
          maxLength={200}
          onChange={(e) => setReason(e.target.value)}
          placeholder="2-200个字"
        />
      </label>
    </Dialog>
  );
}

export function NodeRowActions({ id, name, status }: { id: number; name: string; status: number }) {
  const [rotating, setRotating] = useState(false);
  const { show, dialog } = useSecretDialog();
  const on = status === 1;
  return (
    <div className="flex flex-wrap gap-2">
      <ReasonAction
        label={on ? '停用' : '启用'}
        title={on ? `停用「${name}」` : `启用「${name}」`}
        description={
          on
            ? '停用后该节点的调用立即被拒绝，其出口退出IP池，直到再次启用。'
            : '启用后该节点可再次签名调用，其出口重新进入IP池。'
        }
        action="Admin.NodeSetEnabled"
        params={{ id, enabled: !on }}
        done={on ? '已停用' : '已启用'}
        buttonClassName={
          on ? 'btn-ghost px-2 py-1 text-xs text-rose-600 hover:bg-rose-50' : 'btn-outline px-2 py-1 text-xs'
        }
      />
      <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={() => setRotating(true)}>
        轮换密钥
      </button>
      {rotating && (
        <RotateDialog
          id={id}
          name={name}
          onClose={() => setRotating(false)}
          onRotated={(r) => {
            setRotating(false);
            show({ title: '密钥已轮换', nodeId: r.id, secret: r.secret, note: r.note });
          }}
        />
      )}
      {dialog}
    </div>
  );
}
