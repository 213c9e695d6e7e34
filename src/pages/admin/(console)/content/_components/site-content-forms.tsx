'use client';
// The site-content screen's leaves: notices, friend links, marketing images (with the R2 upload), promotion materials
// and the online-chat switch. Each form is a RecordForm that creates a row or, given one, edits it; the server validates
// and sanitises.
import { type ReactNode, useState } from 'react';
import type { ActionOutput } from '../../../../../lib/api-core';
import { pushToast } from '../../../../../state/toast';
import { useConsoleWrite } from '../../../_components/console-write';
import { choices, type FormField, RecordForm } from '../../../_components/record-form';
import { DAY_MS } from '../../../../../lib/time';

type SiteContent = ActionOutput<'Admin.SiteContent'>;
type AdminNotice = SiteContent['notices'][number];
type AdminFriendLink = SiteContent['links'][number];
type AdminMarketingImage = SiteContent['images'][number];
type AdminMaterial = SiteContent['materials'][number];

/** Start and end (Asia/Shanghai wall time, as the content actions take them); a new row runs from now for 30 days. */
const windowFields = (
  row: { startsAt: number; endsAt: number } | undefined,
  now: number,
  start = '开始',
): FormField[] => [
  { name: 'startsAt', label: start, kind: 'datetime', send: 'text', defaultValue: row?.startsAt ?? now },
  { name: 'endsAt', label: '结束', kind: 'datetime', send: 'text', defaultValue: row?.endsAt ?? now + 30 * DAY_MS },
];

/** The 启用 check: on for a new row, else the row's own state. */
const enabledField = (row: { enabled: number } | undefined): FormField => ({
  name: 'enabled',
  label: '启用',
  kind: 'bool',
  defaultValue: row ? row.enabled === 1 : true,
});

/** The sort field (0-9999). */
const sortField = (row: { sort: number } | undefined): FormField => ({
  name: 'sort',
  label: '排序',
  kind: 'int',
  defaultValue: row?.sort ?? 0,
});

/** A content row's form: 保存 edits the row (its id sent along), 新建 creates one and clears the form. */
function ContentForm<
  N extends 'Admin.NoticeSave' | 'Admin.FriendLinkSave' | 'Admin.MarketingImageSave' | 'Admin.MaterialSave',
>({
  action,
  row,
  fields,
  fixed = {},
  done,
  testId,
  disabled,
  children,
}: {
  action: N;
  row: { id: number } | undefined;
  fields: FormField[];
  fixed?: Record<string, unknown>;
  /** The toasts: [saved, created]. */
  done: [string, string];
  testId: string;
  disabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <RecordForm
      action={action}
      fields={fields}
      fixed={row ? { id: row.id, ...fixed } : fixed}
      submitLabel={row ? '保存' : '新建'}
      done={row ? done[0] : done[1]}
      testId={testId}
      reset={!row}
      disabled={disabled}
    >
      {children}
    </RecordForm>
  );
}

export function NoticeForm({ notice, now }: { notice?: AdminNotice | undefined; now: number }) {
  return (
    <ContentForm
      action="Admin.NoticeSave"
      row={notice}
      fields={[
        { name: 'title', label: '公告标题', kind: 'text', defaultValue: notice?.title, className: 'sm:col-span-2' },
        ...windowFields(notice, now, '开始（上海时间）'),
        {
          name: 'contentHtml',
          label: '公告内容',
          kind: 'textarea',
          placeholder: 'HTML，保存时净化',
          defaultValue: notice?.contentHtml,
          className: 'sm:col-span-2 lg:col-span-3',
        },
        enabledField(notice),
      ]}
      done={['公告已保存', '公告已发布']}
      testId="notice-form"
    />
  );
}

export function FriendLinkForm({ link }: { link?: AdminFriendLink | undefined }) {
  return (
    <ContentForm
      action="Admin.FriendLinkSave"
      row={link}
      fields={[
        { name: 'linkName', label: '链接名称', kind: 'text', defaultValue: link?.linkName },
        { name: 'linkUrl', label: '链接地址', kind: 'text', placeholder: 'https://', defaultValue: link?.linkUrl },
        {
          name: 'linkTarget',
          label: '打开方式',
          kind: 'select',
          options: choices([
            ['_blank', '新窗口'],
            ['_self', '当前窗口'],
          ]),
          defaultValue: link?.linkTarget ?? '_blank',
        },
        sortField(link),
        { name: 'noFollow', label: '不传递权重', kind: 'bool', defaultValue: link ? link.noFollow === 1 : true },
        enabledField(link),
      ]}
      done={['链接已保存', '链接已新建']}
      testId="link-form"
    />
  );
}

/** Upload a picture to R2 through the console's upload route; answers the path to store in img. */
async function uploadImage(file: File): Promise<string | null> {
  const res = await fetch('/api/upload/marketing-image', {
    method: 'POST',
    body: file,
    headers: { 'content-type': 'application/octet-stream' },
    credentials: 'same-origin',
  });
  const body = (await res.json().catch(() => ({}))) as { P?: { path?: string }; E?: string };
  if (body.P?.path) return body.P.path;
  pushToast('error', body.E ?? '上传失败，请重试');
  return null;
}

export function MarketingImageForm({ image, now }: { image?: AdminMarketingImage | undefined; now: number }) {
  const [img, setImg] = useState(image?.img ?? '');
  const [uploading, setUploading] = useState(false);
  async function onFile(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    const path = await uploadImage(file);
    setUploading(false);
    if (path) {
      setImg(path);
      pushToast('success', '图片已上传，保存后生效');
    }
  }
  return (
    <ContentForm
      action="Admin.MarketingImageSave"
      row={image}
      disabled={uploading}
      fields={[
        {
          name: 'img',
          label: '图片地址',
          kind: 'text',
          value: img,
          onChange: setImg,
          placeholder: '或填写图片地址（站内路径或 https）',
          className: 'sm:col-span-2',
        },
        {
          name: 'slot',
          label: '展示位置',
          kind: 'select',
          options: choices([
            ['centerImg', '顶部横幅'],
            ['bottomBtn2', '底部按钮图'],
          ]),
          defaultValue: image?.slot ?? 'centerImg',
        },
        {
          name: 'audience',
          label: '展示对象',
          kind: 'select',
          options: choices([
            ['all', '所有访客'],
            ['guest', '未登录访客'],
            ['user', '已登录用户'],
          ]),
          defaultValue: image?.audience ?? 'all',
        },
        { name: 'alt', label: '图片说明', kind: 'text', defaultValue: image?.alt },
        {
          name: 'inOrOut',
          label: '链接类型',
          kind: 'select',
          options: choices([
            [1, '站内路径'],
            [2, '站外 https'],
          ]),
          defaultValue: image?.inOrOut ?? 1,
        },
        {
          name: 'clickUrl',
          label: '点击链接',
          kind: 'text',
          placeholder: '点击后打开的地址',
          defaultValue: image?.clickUrl,
          className: 'sm:col-span-2',
        },
        ...windowFields(image, now),
        { name: 'isClick', label: '可点击', kind: 'bool', defaultValue: image?.isClick === 1 },
        enabledField(image),
      ]}
      done={['营销图已保存', '营销图已新建']}
      testId="image-form"
    >
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-4">
        {img ? (
          <img src={img} alt="" className="h-14 max-w-full rounded border border-slate-200 object-contain" />
        ) : (
          <span className="flex h-14 w-28 items-center justify-center rounded border border-dashed border-slate-300 text-xs text-slate-400">
            未选择图片
          </span>
        )}
        <label className="btn-outline cursor-pointer">
          {uploading ? '上传中…' : '上传图片'}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </label>
        <span className="text-xs text-slate-400">JPG/PNG/WEBP，不超过2MB</span>
      </div>
    </ContentForm>
  );
}

export function MaterialForm({ material }: { material?: AdminMaterial | undefined }) {
  return (
    <ContentForm
      action="Admin.MaterialSave"
      row={material}
      fields={[
        {
          name: 'kind',
          label: '素材类型',
          kind: 'select',
          options: choices([
            ['text', '文案'],
            ['image', '图片'],
          ]),
          defaultValue: material?.kind ?? 'text',
        },
        { name: 'title', label: '素材标题', kind: 'text', defaultValue: material?.title },
        sortField(material),
        enabledField(material),
        {
          name: 'content',
          label: '素材内容',
          kind: 'textarea',
          placeholder: '文案（{link} 推广链接、{cities} 城市数、{availability} 可用率）或图片地址',
          defaultValue: material?.content,
          className: 'sm:col-span-2 lg:col-span-3',
        },
      ]}
      done={['素材已保存', '素材已新建']}
      testId="material-form"
    />
  );
}

export function OnlineChatSwitch({ enabled }: { enabled: boolean }) {
  const { busy, run } = useConsoleWrite();
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <span>
        在线客服：
        <b className={enabled ? 'text-emerald-600' : 'text-slate-500'} data-testid="chat-state">
          {enabled ? '已开启' : '已关闭'}
        </b>
      </span>
      <button
        type="button"
        className={enabled ? 'btn-ghost' : 'btn-outline'}
        disabled={busy}
        onClick={() => run('Admin.OnlineChatSet', { enabled: !enabled }, enabled ? '在线客服已关闭' : '在线客服已开启')}
      >
        {enabled ? '关闭' : '开启'}
      </button>
      <span className="text-xs text-slate-400">仅电脑端显示客服窗口</span>
    </div>
  );
}
