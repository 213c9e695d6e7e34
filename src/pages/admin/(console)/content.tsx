// /admin/content: the public site's operator content (content role): notices (the newest live one is the home
// notice), friend links, marketing images (uploaded to R2), promotion materials and the online-chat switch.
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../lib/format';
import { serverApi } from '../../../server/api-server';
import { DeleteButton } from '../_components/help-tools';
import { NoAccess, PageTitle, Section } from '../_components/parts';
import {
  FriendLinkForm,
  MarketingImageForm,
  MaterialForm,
  NoticeForm,
  OnlineChatSwitch,
} from '../_components/site-content-forms';

const SLOT: Record<string, string> = { centerImg: '顶部横幅', bottomBtn2: '底部按钮图' };

function Item({
  title,
  meta,
  children,
  del,
}: {
  title: ReactNode;
  meta: ReactNode;
  children: ReactNode;
  del: ReactNode;
}) {
  return (
    <li className="rounded-lg border border-slate-100 p-3">
      <div className="flex items-start justify-between gap-2 text-sm">
        <div className="min-w-0">
          <p className="break-all font-medium text-slate-900">{title}</p>
          <p className="break-all text-xs text-slate-400">{meta}</p>
        </div>
        <div className="shrink-0">{del}</div>
      </div>
      <details className="mt-2">
        <summary className="cursor-pointer text-xs text-brand-700">编辑</summary>
        <div className="mt-2">{children}</div>
      </details>
    </li>
  );
}

function New({ children }: { children: ReactNode }) {
  return (
    <details className="mt-3 border-t border-slate-100 pt-3">
      <summary className="cursor-pointer text-sm font-medium text-brand-700">＋ 新建</summary>
      <div className="mt-2">{children}</div>
    </details>
  );
}

export default async function AdminContentPage() {
  const res = await (await serverApi()).call('Admin.SiteContent', {}, { silent: true });
  if (!res) return <NoAccess />;
  const now = Date.now();
  const live = (s: number, e: number, enabled: number) =>
    enabled !== 1 ? '已停用' : s > now ? '未开始' : e <= now ? '已结束' : '生效中';
  const home = res.notices.find((n) => n.enabled === 1 && n.startsAt <= now && n.endsAt > now);
  return (
    <div className="space-y-4">
      <PageTitle title="站点内容" />

      <Section title="在线客服">
        <OnlineChatSwitch enabled={res.onlineChat} />
      </Section>

      <Section title="公告">
        <p className="mb-3 text-xs text-slate-500">
          首页显示生效中的最新一条{home ? `：当前为「${home.title}」` : '：当前没有生效的公告'}
          ；个人中心的公告列表显示全部已开始的公告。
        </p>
        <ul className="space-y-2" data-testid="notice-list">
          {res.notices.map((n) => (
            <Item
              key={n.id}
              title={n.title}
              meta={`${live(n.startsAt, n.endsAt, n.enabled)} · ${formatDateTime(n.startsAt)} 至 ${formatDateTime(n.endsAt)}`}
              del={<DeleteButton action="Admin.NoticeDelete" id={n.id} what="该公告" />}
            >
              <NoticeForm notice={n} now={now} />
            </Item>
          ))}
        </ul>
        <New>
          <NoticeForm now={now} />
        </New>
      </Section>

      <Section title="营销图">
        <ul className="space-y-2" data-testid="image-list">
          {res.images.map((m) => (
            <Item
              key={m.id}
              title={
                <span className="flex flex-wrap items-center gap-2">
                  <img
                    src={m.img}
                    alt={m.alt}
                    className="h-10 max-w-40 rounded border border-slate-200 object-contain"
                  />
                  {SLOT[m.slot]} {m.alt && `· ${m.alt}`}
                </span>
              }
              meta={`${live(m.startsAt, m.endsAt, m.enabled)} · ${m.isClick ? `点击打开 ${m.clickUrl}` : '不可点击'}`}
              del={<DeleteButton action="Admin.MarketingImageDelete" id={m.id} what="该营销图" />}
            >
              <MarketingImageForm image={m} now={now} />
            </Item>
          ))}
        </ul>
        <New>
          <MarketingImageForm now={now} />
        </New>
      </Section>

      <Section title="友情链接">
        <ul className="space-y-2" data-testid="link-list">
          {res.links.map((l) => (
            <Item
              key={l.id}
              title={l.linkName}
              meta={`${l.enabled ? '启用' : '停用'} · ${l.linkUrl} · 排序 ${l.sort}`}
              del={<DeleteButton action="Admin.FriendLinkDelete" id={l.id} what="该链接" />}
            >
              <FriendLinkForm link={l} />
            </Item>
          ))}
        </ul>
        <New>
          <FriendLinkForm />
        </New>
      </Section>

      <Section title="推广素材">
        <ul className="space-y-2" data-testid="material-list">
          {res.materials.map((m) => (
            <Item
              key={m.id}
              title={`${m.kind === 'image' ? '图片' : '文案'} · ${m.title}`}
              meta={`${m.enabled ? '启用' : '停用'} · ${m.content.slice(0, 80)}`}
              del={<DeleteButton action="Admin.MaterialDelete" id={m.id} what="该素材" />}
            >
              <MaterialForm material={m} />
            </Item>
          ))}
        </ul>
        <New>
          <MaterialForm />
        </New>
      </Section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
