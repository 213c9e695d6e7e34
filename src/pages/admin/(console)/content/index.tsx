// /admin/content: the public site's operator content (content role): notices (the newest live one is the home
// notice), friend links, marketing images (uploaded to R2), promotion materials and the online-chat switch.
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { type DeleteAction, DeleteButton } from '../../_components/help-tools';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import {
  FriendLinkForm,
  MarketingImageForm,
  MaterialForm,
  NoticeForm,
  OnlineChatSwitch,
} from './_components/site-content-forms';

const SLOT: Record<string, string> = { centerImg: '顶部横幅', bottomBtn2: '底部按钮图' };

/** One kind of content: each row with its summary, delete button and folded edit form, then a folded new form. */
function ContentList<T extends { id: number }>({
  title,
  testId,
  rows,
  intro,
  summary,
  del,
  form,
}: {
  title: string;
  testId: string;
  rows: readonly T[];
  intro?: ReactNode;
  summary: (row: T) => { title: ReactNode; meta: ReactNode };
  del: { action: DeleteAction; what: string };
  /** The edit form for a row, or the new form (no row). */
  form: (row?: T) => ReactNode;
}) {
  return (
    <Section title={title}>
      {intro}
      <ul className="space-y-2" data-testid={testId}>
        {rows.map((row) => {
          const { title: head, meta } = summary(row);
          return (
            <li key={row.id} className="rounded-lg border border-slate-100 p-3">
              <div className="flex items-start justify-between gap-2 text-sm">
                <div className="min-w-0">
                  <p className="break-all font-medium text-slate-900">{head}</p>
                  <p className="break-all text-xs text-slate-400">{meta}</p>
                </div>
                <div className="shrink-0">
                  <DeleteButton action={del.action} id={row.id} what={del.what} />
                </div>
              </div>
              <details className="mt-2">
                <summary className="cursor-pointer text-xs text-brand-700">编辑</summary>
                <div className="mt-2">{form(row)}</div>
              </details>
            </li>
          );
        })}
      </ul>
      <details className="mt-3 border-t border-slate-100 pt-3">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">＋ 新建</summary>
        <div className="mt-2">{form()}</div>
      </details>
    </Section>
  );
}

export default async function AdminContentPage() {
  const res = await load('Admin.SiteContent', {}, false);
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

      <ContentList
        title="公告"
        testId="notice-list"
        rows={res.notices}
        intro={
          <p className="mb-3 text-xs text-slate-500">
            首页显示生效中的最新一条{home ? `：当前为「${home.title}」` : '：当前没有生效的公告'}
            ；个人中心的公告列表显示全部已开始的公告。
          </p>
        }
        summary={(n) => ({
          title: n.title,
          meta: `${live(n.startsAt, n.endsAt, n.enabled)} · ${formatDateTime(n.startsAt)} 至 ${formatDateTime(n.endsAt)}`,
        })}
        del={{ action: 'Admin.NoticeDelete', what: '该公告' }}
        form={(n) => <NoticeForm notice={n} now={now} />}
      />

      <ContentList
        title="营销图"
        testId="image-list"
        rows={res.images}
        summary={(m) => ({
          title: (
            <span className="flex flex-wrap items-center gap-2">
              <img src={m.img} alt={m.alt} className="h-10 max-w-40 rounded border border-slate-200 object-contain" />
              {SLOT[m.slot]} {m.alt && `· ${m.alt}`}
            </span>
          ),
          meta: `${live(m.startsAt, m.endsAt, m.enabled)} · ${m.isClick ? `点击打开 ${m.clickUrl}` : '不可点击'}`,
        })}
        del={{ action: 'Admin.MarketingImageDelete', what: '该营销图' }}
        form={(m) => <MarketingImageForm image={m} now={now} />}
      />

      <ContentList
        title="友情链接"
        testId="link-list"
        rows={res.links}
        summary={(l) => ({ title: l.linkName, meta: `${l.enabled ? '启用' : '停用'} · ${l.linkUrl} · 排序 ${l.sort}` })}
        del={{ action: 'Admin.FriendLinkDelete', what: '该链接' }}
        form={(l) => <FriendLinkForm link={l} />}
      />

      <ContentList
        title="推广素材"
        testId="material-list"
        rows={res.materials}
        summary={(m) => ({
          title: `${m.kind === 'image' ? '图片' : '文案'} · ${m.title}`,
          meta: `${m.enabled ? '启用' : '停用'} · ${m.content.slice(0, 80)}`,
        })}
        del={{ action: 'Admin.MaterialDelete', what: '该素材' }}
        form={(m) => <MaterialForm material={m} />}
      />
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
