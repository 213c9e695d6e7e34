'use client';
// The site-content screen's leaves: notices, friend links, marketing images (with the R2 upload), promotion materials
// and the online-chat switch. Each form creates a row or, given one, edits it; the server validates and sanitises.
import { useState } from 'react';
import type { ActionOutput } from '../../../lib/api-core';
import { pushToast } from '../../../state/toast';
import { choice, field, useAdminWrite } from './admin-write';
import { Check, EnabledCheck, onForm, SortInput, SubmitButton, sortValue, WindowFields } from './form-kit';

type SiteContent = ActionOutput<'Admin.SiteContent'>;
type AdminNotice = SiteContent['notices'][number];
type AdminFriendLink = SiteContent['links'][number];
type AdminMarketingImage = SiteContent['images'][number];
type AdminMaterial = SiteContent['materials'][number];

const grid = 'grid gap-2 sm:grid-cols-2 lg:grid-cols-4';

export function NoticeForm({ notice, now }: { notice?: AdminNotice | undefined; now: number }) {
  const { busy, run } = useAdminWrite();
  const submit = onForm((f) =>
    run(
      'Admin.NoticeSave',
      {
        ...(notice ? { id: notice.id } : {}),
        title: field(f, 'title'),
        contentHtml: field(f, 'contentHtml'),
        startsAt: field(f, 'startsAt'),
        endsAt: field(f, 'endsAt'),
        enabled: f.get('enabled') === 'on',
      },
      notice ? '公告已保存' : '公告已发布',
    ),
  );
  return (
    <form onSubmit={submit} className="space-y-2" data-testid="notice-form">
      <div className={grid}>
        <input
          name="title"
          className="input lg:col-span-2"
          placeholder="公告标题"
          aria-label="公告标题"
          defaultValue={notice?.title}
        />
        <WindowFields row={notice} now={now} startLabel="开始（上海时间）" />
      </div>
      <textarea
        name="contentHtml"
        className="input min-h-20 font-mono"
        placeholder="公告内容（HTML，保存时净化）"
        aria-label="公告内容"
        defaultValue={notice?.contentHtml}
      />
      <div className="flex flex-wrap items-center gap-4">
        <EnabledCheck row={notice} />
        <SubmitButton busy={busy} editing={Boolean(notice)} />
      </div>
    </form>
  );
}

export function FriendLinkForm({ link }: { link?: AdminFriendLink | undefined }) {
  const { busy, run } = useAdminWrite();
  const submit = onForm((f) =>
    run(
      'Admin.FriendLinkSave',
      {
        ...(link ? { id: link.id } : {}),
        linkName: field(f, 'linkName'),
        linkUrl: field(f, 'linkUrl'),
        linkTarget: field(f, 'linkTarget') === '_self' ? '_self' : '_blank',
        noFollow: f.get('noFollow') === 'on',
        sort: sortValue(f),
        enabled: f.get('enabled') === 'on',
      },
      link ? '链接已保存' : '链接已新建',
    ),
  );
  return (
    <form onSubmit={submit} className="grid gap-2 sm:grid-cols-2 lg:grid-cols-6" data-testid="link-form">
      <input name="linkName" className="input" placeholder="名称" aria-label="链接名称" defaultValue={link?.linkName} />
      <input
        name="linkUrl"
        className="input lg:col-span-2"
        placeholder="https://"
        aria-label="链接地址"
        defaultValue={link?.linkUrl}
      />
      <select name="linkTarget" className="input" aria-label="打开方式" defaultValue={link?.linkTarget ?? '_blank'}>
        <option value="_blank">新窗口</option>
        <option value="_self">当前窗口</option>
      </select>
      <SortInput value={link?.sort} />
      <div className="flex flex-wrap items-center gap-3">
        <Check name="noFollow" label="nofollow" checked={link ? link.noFollow === 1 : true} />
        <EnabledCheck row={link} />
        <SubmitButton busy={busy} editing={Boolean(link)} />
      </div>
    </form>
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
  const { busy, run } = useAdminWrite();
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
  const submit = onForm((f) =>
    run(
      'Admin.MarketingImageSave',
      {
        ...(image ? { id: image.id } : {}),
        slot: choice(field(f, 'slot'), ['centerImg', 'bottomBtn2']),
        img,
        isClick: f.get('isClick') === 'on',
        clickUrl: field(f, 'clickUrl'),
        inOrOut: field(f, 'inOrOut') === '2' ? 2 : 1,
        alt: field(f, 'alt'),
        audience: choice(field(f, 'audience'), ['all', 'guest', 'user']),
        startsAt: field(f, 'startsAt'),
        endsAt: field(f, 'endsAt'),
        enabled: f.get('enabled') === 'on',
      },
      image ? '营销图已保存' : '营销图已新建',
    ),
  );
  return (
    <form onSubmit={submit} className="space-y-2" data-testid="image-form">
      <div className="flex flex-wrap items-center gap-3">
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
      <div className={grid}>
        <input
          className="input lg:col-span-2"
          value={img}
          onChange={(e) => setImg(e.target.value)}
          placeholder="或填写图片地址（站内路径或 https）"
          aria-label="图片地址"
        />
        <select name="slot" className="input" aria-label="展示位置" defaultValue={image?.slot ?? 'centerImg'}>
          <option value="centerImg">顶部横幅</option>
          <option value="bottomBtn2">底部按钮图</option>
        </select>
        <select name="audience" className="input" aria-label="展示对象" defaultValue={image?.audience ?? 'all'}>
          <option value="all">所有访客</option>
          <option value="guest">未登录访客</option>
          <option value="user">已登录用户</option>
        </select>
        <input name="alt" className="input" placeholder="图片说明" aria-label="图片说明" defaultValue={image?.alt} />
        <select name="inOrOut" className="input" aria-label="链接类型" defaultValue={String(image?.inOrOut ?? 1)}>
          <option value="1">站内路径</option>
          <option value="2">站外 https</option>
        </select>
        <input
          name="clickUrl"
          className="input lg:col-span-2"
          placeholder="点击后打开的地址"
          aria-label="点击链接"
          defaultValue={image?.clickUrl}
        />
        <WindowFields row={image} now={now} />
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <Check name="isClick" label="可点击" checked={image?.isClick === 1} />
        <EnabledCheck row={image} />
        <SubmitButton busy={busy || uploading} editing={Boolean(image)} />
      </div>
    </form>
  );
}

export function MaterialForm({ material }: { material?: AdminMaterial | undefined }) {
  const { busy, run } = useAdminWrite();
  const submit = onForm((f) =>
    run(
      'Admin.MaterialSave',
      {
        ...(material ? { id: material.id } : {}),
        kind: field(f, 'kind') === 'image' ? 'image' : 'text',
        title: field(f, 'title'),
        content: field(f, 'content'),
        sort: sortValue(f),
        enabled: f.get('enabled') === 'on',
      },
      material ? '素材已保存' : '素材已新建',
    ),
  );
  return (
    <form onSubmit={submit} className="space-y-2" data-testid="material-form">
      <div className={grid}>
        <select name="kind" className="input" aria-label="素材类型" defaultValue={material?.kind ?? 'text'}>
          <option value="text">文案</option>
          <option value="image">图片</option>
        </select>
        <input name="title" className="input" placeholder="标题" aria-label="素材标题" defaultValue={material?.title} />
        <SortInput value={material?.sort} />
        <EnabledCheck row={material} />
      </div>
      <textarea
        name="content"
        className="input min-h-16"
        placeholder="文案（{link} 推广链接、{cities} 城市数、{availability} 可用率）或图片地址"
        aria-label="素材内容"
        defaultValue={material?.content}
      />
      <SubmitButton busy={busy} editing={Boolean(material)} />
    </form>
  );
}

export function OnlineChatSwitch({ enabled }: { enabled: boolean }) {
  const { busy, run } = useAdminWrite();
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
