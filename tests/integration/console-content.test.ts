// The console's content and delivery actions (docs/decisions/125, 126): who may call them, what each write changes
// and what the public site serves right after, the audit row written in the same batch, validation that changes
// nothing, and nodes: the secret shown once, a disabled node refused, a rotated secret replacing the old one.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { ARTICLE_STATE } from '../../src/lib/article-states';
import { OPERATOR_ROLES, type OperatorRole } from '../../src/lib/operator-roles';
import { BASE, callApi, callApiUntyped, loginBySms, resetDb } from '../helpers/api';
import { addConsultation, addHelpArticles, articlesTitled, contentRowCount, storedArticle } from '../helpers/content';
import { addExit, addPool, healthyExitCount, nodeCall, nodeCount, setExitHealthy } from '../helpers/delivery';
import { auditRows, operatorLogin } from '../helpers/operators';

beforeEach(resetDb);

/** The operator's audited writes (its login events left out). */
const auditOf = (operatorId: number) => auditRows({ operatorId, withoutOperatorEvents: true });

const CONTENT_ACTIONS = [
  'Admin.HelpCategoryList',
  'Admin.HelpCategorySave',
  'Admin.HelpCategoryDelete',
  'Admin.ArticleList',
  'Admin.ArticleDetail',
  'Admin.ArticlePreview',
  'Admin.ArticleSave',
  'Admin.ArticlePublish',
  'Admin.SiteContent',
  'Admin.NoticeSave',
  'Admin.NoticeDelete',
  'Admin.FriendLinkSave',
  'Admin.FriendLinkDelete',
  'Admin.MarketingImageSave',
  'Admin.MarketingImageDelete',
  'Admin.MaterialSave',
  'Admin.MaterialDelete',
  'Admin.OnlineChatSet',
];
const SUPPORT_ACTIONS = ['Admin.ConsultList', 'Admin.ConsultMark'];
const OPS_ACTIONS = ['Admin.NodeList', 'Admin.NodeCreate', 'Admin.NodeSetEnabled', 'Admin.NodeRotateSecret'];

describe('access', { timeout: 60_000 }, () => {
  it('refuses a customer session (403) and every role outside the action’s own (403); admin and the role pass', async () => {
    const customer = await loginBySms('13900000081');
    const cookies = {} as Record<OperatorRole, string>;
    for (const role of OPERATOR_ROLES) cookies[role] = (await operatorLogin(role)).cookie;
    const groups: [string[], OperatorRole][] = [
      [CONTENT_ACTIONS, 'content'],
      [SUPPORT_ACTIONS, 'support'],
      [OPS_ACTIONS, 'ops'],
    ];
    for (const [names, own] of groups) {
      for (const name of names) {
        expect((await callApiUntyped(name, {}, { cookie: customer })).status, name).toBe(403);
        for (const role of OPERATOR_ROLES) {
          const res = await callApiUntyped(name, {}, { cookie: cookies[role] });
          // Allowed roles reach the handler: an answer (maybe a validation error), never a refusal.
          if (role === own || role === 'admin') expect([200, 400], `${name} as ${role}`).toContain(res.status);
          else expect(res.status, `${name} as ${role}`).toBe(403);
        }
      }
    }
  });
});

async function makeCategory(cookie: string, url = 'guides') {
  const res = await callApi('Admin.HelpCategorySave', { topCategory: 0, name: '使用教程', url, sort: 1 }, { cookie });
  expect(res.body.E).toBeUndefined();
  return res.body.P?.id ?? 0;
}

describe('help articles', { timeout: 60_000 }, () => {
  it('the article list pages through every match, 50 a page, with the total', async () => {
    const op = await operatorLogin('content');
    const categoryId = await makeCategory(op.cookie);
    await addHelpArticles(
      Array.from({ length: 123 }, (_, i) => ({
        categoryId,
        url: `a-${i}`,
        title: i % 10 === 0 ? `代理教程 ${i}` : `文章 ${i}`,
        bodyHtml: '<p>x</p>',
        bodyText: 'x',
        state: i % 2 === 0 ? ARTICLE_STATE.draft : ARTICLE_STATE.published,
        publishedAt: 0,
        updatedAt: 1_000 + i,
      })),
    );
    type Page = { list: { url: string }[]; total: number; page: number; pageSize: number };
    const list = async (input: Record<string, unknown>) => {
      const res = await callApi('Admin.ArticleList', input, { cookie: op.cookie });
      expect(res.body.E).toBeUndefined();
      return res.body.P as Page;
    };
    const pages = [await list({}), await list({ page: 2 }), await list({ page: 3 })];
    expect(pages.map((p) => [p.list.length, p.total, p.page, p.pageSize])).toEqual([
      [50, 123, 1, 50],
      [50, 123, 2, 50],
      [23, 123, 3, 50],
    ]);
    // Every article exactly once, most recently changed first (the 100-row cap is gone).
    const urls = pages.flatMap((p) => p.list.map((a) => a.url));
    expect(urls).toEqual(Array.from({ length: 123 }, (_, i) => `a-${122 - i}`));
    expect((await list({ page: 4 })).list).toEqual([]);
    // Search and filters page too and count only what matches.
    const found = await list({ q: '代理教程', state: 0 });
    expect(found.total).toBe(13);
    expect(found.list.map((a) => a.url)).toEqual(Array.from({ length: 13 }, (_, i) => `a-${120 - i * 10}`));
    expect((await callApi('Admin.ArticleList', { page: 0 }, { cookie: op.cookie })).body.E).toBe('页码无效');
  });

  it('a new article stays hidden until published; an edit is served by the public actions at once', async () => {
    const op = await operatorLogin('content');
    const categoryId = await makeCategory(op.cookie);
    const saved = await callApi(
      'Admin.ArticleSave',
      {
        kind: 'help',
        categoryId,
        url: 'first-steps',
        title: '第一步：添加白名单',
        keywords: '白名单, 入门',
        bodyHtml: '<p>旧的说明文字</p><script>alert(1)</script><a href="javascript:alert(1)">x</a>',
      },
      { cookie: op.cookie },
    );
    expect(saved.body.E).toBeUndefined();
    const id = saved.body.P?.id ?? 0;
    // Sanitised when saved: the script and the javascript: link are gone from what is stored.
    expect(saved.body.P?.bodyHtml).toBe('<p>旧的说明文字</p><a>x</a>');
    expect(await storedArticle(id)).toEqual({ bodyHtml: '<p>旧的说明文字</p><a>x</a>', state: ARTICLE_STATE.draft });
    expect((await callApi('HelpRenovation.GetArticleById', { id })).body.E).toBe('文章不存在或已下线');

    expect((await callApi('Admin.ArticlePublish', { id, publish: true }, { cookie: op.cookie })).body.P).toEqual({
      state: 1,
    });
    const served = await callApi('HelpRenovation.GetArticleById', {
      url: 'first-steps',
    });
    expect(served.body.P?.article.content).toContain('旧的说明文字');

    // Edit the published article: the very next public read and the search index carry the new text.
    const edited = await callApi(
      'Admin.ArticleSave',
      {
        id,
        updatedAt: saved.body.P?.updatedAt,
        kind: 'help',
        categoryId,
        url: 'first-steps',
        title: '第一步：添加白名单',
        bodyHtml: '<p>新的说明：先在个人中心添加终端IP</p>',
      },
      { cookie: op.cookie },
    );
    expect(edited.body.E).toBeUndefined();
    const after = await callApi('HelpRenovation.GetArticleById', { id });
    expect(after.body.P?.article.content).toBe('<p>新的说明：先在个人中心添加终端IP</p>');
    const found = await callApi('HelpRenovation.GetArticleBykw', { keyword: '终端IP' });
    expect(found.body.P?.list.map((a) => a.id)).toEqual([id]);
    const stale = await callApi('HelpRenovation.GetArticleBykw', { keyword: '旧的说明' });
    expect(stale.body.P?.list).toEqual([]);

    // A save based on the old version (someone else saved since) is refused and changes nothing.
    const conflict = await callApi(
      'Admin.ArticleSave',
      {
        id,
        updatedAt: saved.body.P?.updatedAt,
        kind: 'help',
        categoryId,
        url: 'first-steps',
        title: '覆盖',
        bodyHtml: '<p>覆盖</p>',
      },
      { cookie: op.cookie },
    );
    expect(conflict.body.E).toBe('文章已被他人修改，请刷新后再编辑');
    expect(await articlesTitled('覆盖')).toBe(0);

    // Unpublish: hidden from the article page and from search.
    await callApi('Admin.ArticlePublish', { id, publish: false }, { cookie: op.cookie });
    expect((await callApi('HelpRenovation.GetArticleById', { id })).body.E).toBe('文章不存在或已下线');
    expect((await callApi('HelpRenovation.GetArticleBykw', { keyword: '终端IP' })).body.P?.list).toEqual([]);
    // Unpublishing twice is refused and recorded once.
    expect((await callApi('Admin.ArticlePublish', { id, publish: false }, { cookie: op.cookie })).body.E).toBe(
      '已经是该状态，无需重复操作',
    );

    expect((await auditOf(op.id)).map((r) => [r.action, r.target])).toEqual([
      ['Admin.HelpCategorySave', 'help_category:new'],
      ['Admin.ArticleSave', 'article:new'],
      ['Admin.ArticlePublish', `article:${id}`],
      ['Admin.ArticleSave', `article:${id}`],
      ['Admin.ArticlePublish', `article:${id}`],
    ]);
  });

  it('invalid input changes nothing and writes no audit row', async () => {
    const op = await operatorLogin('content');
    const categoryId = await makeCategory(op.cookie);
    const base = { kind: 'help', categoryId, url: 'a-page', title: '标题', bodyHtml: '<p>正文</p>' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, url: 'Bad URL' }, '地址须为小写字母、数字和连字符（最多80位）'],
      [{ ...base, url: 'guides' }, '该地址已被其他分类或文章使用'],
      [{ ...base, title: '  ' }, '请填写标题'],
      [{ ...base, bodyHtml: '<script>x</script>' }, '正文不能为空（净化后没有可显示的内容）'],
      [{ ...base, categoryId: 999 }, '帮助分类不存在'],
      [{ ...base, id: 999, updatedAt: 1 }, '文章不存在或已下线'],
    ];
    for (const [input, message] of cases) {
      expect((await callApiUntyped('Admin.ArticleSave', input, { cookie: op.cookie })).body.E).toContain(message);
    }
    expect(await contentRowCount('articles')).toBe(0);
    expect(
      (await callApi('Admin.HelpCategorySave', { topCategory: 0, name: '重复', url: 'guides' }, { cookie: op.cookie }))
        .body.E,
    ).toBe('该地址已被其他分类或文章使用');
    expect((await auditOf(op.id)).map((r) => r.action)).toEqual(['Admin.HelpCategorySave']);
  });

  it('a category holding articles cannot be deleted; an empty one can', async () => {
    const op = await operatorLogin('content');
    const full = await makeCategory(op.cookie, 'full');
    const empty = await makeCategory(op.cookie, 'empty');
    await callApi(
      'Admin.ArticleSave',
      { kind: 'help', categoryId: full, url: 'in-full', title: '一篇', bodyHtml: '<p>x</p>' },
      { cookie: op.cookie },
    );
    expect((await callApi('Admin.HelpCategoryDelete', { id: full }, { cookie: op.cookie })).body.E).toBe(
      '分类下还有文章，不能删除：请先把文章移到其他分类',
    );
    expect((await callApi('Admin.HelpCategoryDelete', { id: empty }, { cookie: op.cookie })).body.P).toEqual({
      deleted: true,
    });
    expect(await contentRowCount('help_categories')).toBe(1);
    expect((await auditOf(op.id)).filter((r) => r.action === 'Admin.HelpCategoryDelete')).toHaveLength(1);
  });

  it('the preview answers the body exactly as it would be stored, writing nothing', async () => {
    const op = await operatorLogin('content');
    const res = await callApi(
      'Admin.ArticlePreview',
      { bodyHtml: '<h2 onclick="x()">标题</h2><iframe src="https://e.example"></iframe>' },
      { cookie: op.cookie },
    );
    expect(res.body.P?.html).toBe('<h2>标题</h2>');
    expect(await auditOf(op.id)).toEqual([]);
  });
});

describe('site content', { timeout: 60_000 }, () => {
  it('notices, friend links and the online-chat switch are served by the public actions at once', async () => {
    const op = await operatorLogin('content');
    expect(
      (
        await callApi(
          'Admin.NoticeSave',
          { title: '维护', contentHtml: '<p>x</p>', startsAt: '2026-01-02T00:00', endsAt: '2026-01-01T00:00' },
          { cookie: op.cookie },
        )
      ).body.E,
    ).toBe('结束时间必须晚于开始时间');
    expect(await contentRowCount('home_notices')).toBe(0);
    const notice = await callApi(
      'Admin.NoticeSave',
      {
        title: '系统维护通知',
        contentHtml: '<p>今晚维护</p><img src=x onerror=alert(1)>',
        startsAt: '2020-01-01T00:00',
        endsAt: '2099-01-01T00:00',
      },
      { cookie: op.cookie },
    );
    expect(notice.body.E).toBeUndefined();
    const home = await callApi('Notice.getShowHomeNotice');
    expect(home.body.P?.notice?.title).toBe('系统维护通知');
    expect(home.body.P?.notice?.content).not.toContain('onerror');

    expect(
      (
        await callApi(
          'Admin.FriendLinkSave',
          { linkName: '坏链接', linkUrl: 'javascript:alert(1)' },
          { cookie: op.cookie },
        )
      ).body.E,
    ).toBe('链接必须是 https:// 地址或以 / 开头的站内路径');
    expect(await contentRowCount('friend_links')).toBe(0);
    const link = await callApi(
      'Admin.FriendLinkSave',
      { linkName: '合作伙伴', linkUrl: 'https://partner.example/' },
      { cookie: op.cookie },
    );
    const links = await callApi('Link.queryLinks');
    expect(links.body.P?.list.map((l) => l.linkName)).toEqual(['合作伙伴']);
    await callApi('Admin.FriendLinkDelete', { id: link.body.P?.id ?? 0 }, { cookie: op.cookie });
    expect((await callApi('Link.queryLinks')).body.P?.list).toEqual([]);

    await callApi('Admin.OnlineChatSet', { enabled: true }, { cookie: op.cookie });
    expect((await callApi('Config.CurrentMessageShow', {}, { headers: { 'source-type': '1' } })).body.P?.res).toBe(
      true,
    );
    await callApi('Admin.OnlineChatSet', { enabled: false }, { cookie: op.cookie });
    expect((await callApi('Config.CurrentMessageShow', {}, { headers: { 'source-type': '1' } })).body.P?.res).toBe(
      false,
    );

    // A notice read by a customer is deleted with its read marks; the home notice is gone at once.
    const reader = await loginBySms('13900000083');
    await callApi('Notice.ReadNotice', { id: notice.body.P?.id ?? 0 }, { cookie: reader });
    expect(await contentRowCount('notice_reads')).toBe(1);
    await callApi('Admin.NoticeDelete', { id: notice.body.P?.id ?? 0 }, { cookie: op.cookie });
    expect(await contentRowCount('notice_reads')).toBe(0);
    expect((await callApi('Notice.getShowHomeNotice')).body.P?.notice).toBeNull();

    expect((await auditOf(op.id)).map((r) => r.action)).toEqual([
      'Admin.NoticeSave',
      'Admin.FriendLinkSave',
      'Admin.FriendLinkDelete',
      'Admin.OnlineChatSet',
      'Admin.OnlineChatSet',
      'Admin.NoticeDelete',
    ]);
  });

  it('marketing images and materials are validated like the public shell shows them', async () => {
    const op = await operatorLogin('content');
    const window = { startsAt: '2020-01-01T00:00', endsAt: '2099-01-01T00:00' };
    expect(
      (
        await callApi(
          'Admin.MarketingImageSave',
          { slot: 'centerImg', img: 'javascript:x', ...window },
          { cookie: op.cookie },
        )
      ).body.E,
    ).toBe('链接必须是 https:// 地址或以 / 开头的站内路径');
    expect(
      (
        await callApi(
          'Admin.MarketingImageSave',
          {
            slot: 'centerImg',
            img: '/images/banner.png',
            isClick: true,
            inOrOut: 1,
            clickUrl: 'https://x.example',
            ...window,
          },
          { cookie: op.cookie },
        )
      ).body.E,
    ).toBe('链接必须是 https:// 地址或以 / 开头的站内路径');
    expect(await contentRowCount('marketing_images')).toBe(0);
    await callApi(
      'Admin.MarketingImageSave',
      {
        slot: 'centerImg',
        img: '/images/banner.png',
        isClick: true,
        inOrOut: 1,
        clickUrl: '/buy',
        alt: '双11',
        ...window,
      },
      { cookie: op.cookie },
    );
    const shown = await callApi('Activity.GetActivityMarketingImg');
    expect(shown.body.P?.imges.centerImg).toMatchObject({ img: '/images/banner.png', clickUrl: '/buy' });

    await callApi(
      'Admin.MaterialSave',
      { kind: 'text', title: '推荐语', content: '注册链接：{link}' },
      { cookie: op.cookie },
    );
    const materials = await callApi('Config.UserPromotionMaterial');
    expect(materials.body.P?.list.map((m) => m.title)).toEqual(['推荐语']);
    // Editing changes the row in place; editing a row that does not exist changes and records nothing.
    const id = materials.body.P?.list[0]?.id;
    await callApi(
      'Admin.MaterialSave',
      { id, kind: 'text', title: '新推荐语', content: '链接：{link}' },
      { cookie: op.cookie },
    );
    expect((await callApi('Config.UserPromotionMaterial')).body.P?.list.map((m) => m.title)).toEqual(['新推荐语']);
    const before = (await auditOf(op.id)).length;
    expect(
      (
        await callApi(
          'Admin.MaterialSave',
          { id: 99_999, kind: 'text', title: 'x', content: 'y' },
          { cookie: op.cookie },
        )
      ).body.E,
    ).toBe('内容不存在或已删除，请刷新后重试');
    expect(await auditOf(op.id)).toHaveLength(before);
    expect(await contentRowCount('promotion_materials')).toBe(1);
  });
});

describe('consultations', { timeout: 30_000 }, () => {
  it('support lists new consultations and marks them handled once', async () => {
    const op = await operatorLogin('support');
    await addConsultation({
      company: '某科技',
      contactName: '张先生',
      phone: '13900000001',
      scenario: '数据采集',
      monthlyVolume: '1000万',
      clientIp: '198.51.100.1',
    });
    const list = await callApi('Admin.ConsultList', {}, { cookie: op.cookie });
    expect(list.body.P?.list.map((c) => c.company)).toEqual(['某科技']);
    const id = list.body.P?.list[0]?.id;
    expect(
      (await callApi('Admin.ConsultMark', { id: id ?? 0, state: 1, note: '已电话联系' }, { cookie: op.cookie })).body.P,
    ).toEqual({
      state: 1,
    });
    expect((await callApi('Admin.ConsultMark', { id: id ?? 0, state: 1 }, { cookie: op.cookie })).body.E).toBe(
      '已经是该状态，无需重复操作',
    );
    expect((await callApi('Admin.ConsultList', { state: 0 }, { cookie: op.cookie })).body.P?.list).toEqual([]);
    expect(await auditOf(op.id)).toEqual([
      expect.objectContaining({
        action: 'Admin.ConsultMark',
        target: `consult:${id}`,
        after: '已联系',
        reason: '已电话联系',
      }),
    ]);
  });
});

describe('nodes', { timeout: 60_000 }, () => {
  it('a new node signs with the secret shown once; disabling refuses its calls and pulls its exits; an immediate rotation replaces the secret', async () => {
    const op = await operatorLogin('ops');
    const created = await callApi('Admin.NodeCreate', { name: 'gz-telecom-01' }, { cookie: op.cookie });
    const { id, secret } = created.body.P ?? { id: 0, secret: '' };
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect((await callApi('Admin.NodeCreate', { name: 'GZ-TELECOM-01' }, { cookie: op.cookie })).body.E).toBe(
      '该节点名称已被使用',
    );
    expect((await callApi('Admin.NodeCreate', { name: 'bad name!' }, { cookie: op.cookie })).body.E).toBeTruthy();
    expect(await nodeCount()).toBe(1);
    expect((await nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { nodeId: id, secret })).status).toBe(200);

    // The list never carries a secret.
    const list = await callApi('Admin.NodeList', {}, { cookie: op.cookie });
    expect(list.body.P?.nodes).toHaveLength(1);
    expect(JSON.stringify(list.body.P)).not.toContain(secret);

    // Rotate with immediate effect (a leaked secret): the old secret is refused at once, the new one works; neither
    // secret reaches the audit log. (The default rotation's grace window: tests/integration/node-secrets.test.ts.)
    expect((await callApiUntyped('Admin.NodeRotateSecret', { id }, { cookie: op.cookie })).body.E).toBe(
      '请填写操作原因（2-200个字）',
    );
    const rotated = await callApi(
      'Admin.NodeRotateSecret',
      { id, reason: '密钥泄露', immediate: true },
      { cookie: op.cookie },
    );
    const fresh = rotated.body.P?.secret ?? '';
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh).not.toBe(secret);
    expect((await nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { nodeId: id, secret })).status).toBe(401);
    expect((await nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { nodeId: id, secret: fresh })).status).toBe(
      200,
    );

    // Disable: every /node call is refused and the node's exits leave the pool.
    await addExit({
      node: id,
      pool: 10,
      ip: '203.0.113.77',
      port: 40000,
      province: '广东省',
      city: '广州市',
      carrier: '电信',
      expiresAt: Date.now() + 3_600_000,
      checkedAt: 0,
    });
    const disabled = await callApi(
      'Admin.NodeSetEnabled',
      { id, enabled: false, reason: '机房下线' },
      { cookie: op.cookie },
    );
    expect(disabled.body.P).toEqual({ status: 0 });
    expect((await nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { nodeId: id, secret: fresh })).status).toBe(
      401,
    );
    expect(
      (await nodeCall('POST', '/node/v2/heartbeat', JSON.stringify({ exits: [] }), { nodeId: id, secret: fresh }))
        .status,
    ).toBe(401);
    expect(await healthyExitCount(id)).toBe(0);
    expect(
      (await callApi('Admin.NodeSetEnabled', { id, enabled: false, reason: '重复' }, { cookie: op.cookie })).body.E,
    ).toBe('已经是该状态，无需重复操作');
    await callApi('Admin.NodeSetEnabled', { id, enabled: true, reason: '恢复上线' }, { cookie: op.cookie });
    expect((await nodeCall('GET', '/node/v2/contract?verifier=hs1', '', { nodeId: id, secret: fresh })).status).toBe(
      200,
    );

    const rows = await auditOf(op.id);
    expect(rows.map((r) => r.action)).toEqual([
      'Admin.NodeCreate',
      'Admin.NodeRotateSecret',
      'Admin.NodeSetEnabled',
      'Admin.NodeSetEnabled',
    ]);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(fresh);
  });

  it('lists exits and health per node, region and carrier', async () => {
    const op = await operatorLogin('ops');
    await addPool([{ ip: '203.0.113.1' }, { ip: '203.0.113.2', province: '浙江省', city: '杭州市', carrier: '联通' }]);
    await setExitHealthy('203.0.113.2', false);
    const res = await callApi('Admin.NodeList', {}, { cookie: op.cookie });
    expect(res.body.P?.nodes).toEqual([expect.objectContaining({ id: 1, exits: 2, healthy: 1 })]);
    expect(res.body.P?.exits).toEqual([
      expect.objectContaining({ nodeId: 1, province: '广东省', carrier: '电信', total: 1, healthy: 1 }),
      expect.objectContaining({ nodeId: 1, province: '浙江省', carrier: '联通', total: 1, healthy: 0 }),
    ]);
  });
});

describe('marketing image upload', { timeout: 30_000 }, () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
  const upload = (body: BodyInit, cookie?: string, headers: Record<string, string> = {}) =>
    SELF.fetch(`${BASE}/api/upload/marketing-image`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream', ...(cookie ? { cookie } : {}), ...headers },
    });
  const stored = async () => (await env.FILES.list({ prefix: 'public/marketing/' })).objects.length;

  it('stores an image from the content role in R2, serves it publicly and refuses the rest', async () => {
    const content = await operatorLogin('content');
    const ops = await operatorLogin('ops');
    const customer = await loginBySms('13900000082');
    expect((await upload(PNG)).status).toBe(401);
    expect((await upload(PNG, customer)).status).toBe(401);
    expect((await upload(PNG, ops.cookie)).status).toBe(403);
    expect((await upload(PNG, content.cookie, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await upload(new TextEncoder().encode('<svg onload=alert(1)>'), content.cookie)).status).toBe(415);
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(PNG);
    expect((await upload(big, content.cookie)).status).toBe(413);
    expect(await stored()).toBe(0);

    const ok = await upload(PNG, content.cookie);
    expect(ok.status).toBe(200);
    const { P } = (await ok.json()) as { P: { path: string; mime: string } };
    expect(P.path).toMatch(/^\/api\/media\/marketing\/[0-9a-f-]{36}\.png$/);
    expect(await stored()).toBe(1);
    const served = await SELF.fetch(`${BASE}${P.path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    expect((await SELF.fetch(`${BASE}/api/media/marketing/../../private/x.png`)).status).toBe(404);
    expect((await auditOf(content.id)).map((r) => r.action)).toEqual(['Admin.MarketingImageUpload']);

    // The uploaded path is accepted as a marketing image's picture.
    const saved = await callApi(
      'Admin.MarketingImageSave',
      { slot: 'bottomBtn2', img: P.path, startsAt: '2020-01-01T00:00', endsAt: '2099-01-01T00:00' },
      { cookie: content.cookie },
    );
    expect(saved.body.E).toBeUndefined();
  });

  it('deleting a marketing image deletes its uploaded file from R2 unless other content still uses it', async () => {
    const content = await operatorLogin('content');
    const before = await stored();
    const put = async () => {
      const res = await upload(PNG, content.cookie);
      return ((await res.json()) as { P: { path: string } }).P.path;
    };
    const shared = await put();
    const quoted = await put();
    expect(await stored()).toBe(before + 2);
    const save = async (img: string) => {
      const res = await callApi(
        'Admin.MarketingImageSave',
        { slot: 'centerImg', img, startsAt: '2020-01-01T00:00', endsAt: '2099-01-01T00:00' },
        { cookie: content.cookie },
      );
      expect(res.body.E).toBeUndefined();
      return res.body.P?.id ?? 0;
    };
    const del = (id: number) => callApi('Admin.MarketingImageDelete', { id }, { cookie: content.cookie });
    const first = await save(shared);
    const second = await save(shared);
    const third = await save(quoted);
    const outside = await save('https://cdn.example.com/banner.png');
    const material = await callApi(
      'Admin.MaterialSave',
      { kind: 'image', title: '横幅', content: quoted },
      { cookie: content.cookie },
    );
    expect(material.body.E).toBeUndefined();

    // Another marketing image still shows the shared file: the row goes, the file stays, the answer says so.
    expect((await del(first)).body.P).toEqual({
      deleted: true,
      fileDeleted: false,
      note: '营销图已删除；图片文件仍被其他 1 处内容使用，已保留',
    });
    expect((await SELF.fetch(`${BASE}${shared}`)).status).toBe(200);
    // The last user of the file: the row and the R2 object both go, and the public path answers 404.
    expect((await del(second)).body.P).toEqual({ deleted: true, fileDeleted: true, note: '营销图及其图片文件已删除' });
    expect(await env.FILES.head(`public/marketing/${shared.split('/').at(-1)}`)).toBeNull();
    expect((await SELF.fetch(`${BASE}${shared}`)).status).toBe(404);
    // A promotion material names the other file: kept.
    expect((await del(third)).body.P?.fileDeleted).toBe(false);
    expect((await SELF.fetch(`${BASE}${quoted}`)).status).toBe(200);
    // A picture from elsewhere has no file of ours to delete.
    expect((await del(outside)).body.P).toEqual({ deleted: true, fileDeleted: false, note: '营销图已删除' });
    expect(await stored()).toBe(before + 1);
    expect(await contentRowCount('marketing_images')).toBe(0);
    expect(
      (await auditOf(content.id)).filter((r) => r.action === 'Admin.MarketingImageDelete').map((r) => r.target),
    ).toEqual([first, second, third, outside].map((id) => `marketing_image:${id}`));
    // Deleting it again changes nothing and says so.
    expect((await del(first)).body.E).toBe('内容不存在或已删除，请刷新后重试');
  });
});
