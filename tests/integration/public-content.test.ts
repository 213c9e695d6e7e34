import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput } from '../../src/lib/api-core';
import { callApi, callApiUntyped } from '../helpers/api';
import {
  addFriendLinkRow,
  changeArticle,
  changeMarketingImages,
  disableMarketingImages,
  endHomeNotices,
  homeNoticeHtml,
  resetWithContent,
  setSiteSetting,
  storedConsultations,
  storedTrackingPoints,
} from '../helpers/content';

beforeEach(resetWithContent);

describe('HelpRenovation (help centre reads)', () => {
  it('lists news, newest first, 6 per page by default', async () => {
    const r = await callApi('HelpRenovation.GetInnerNewsArticle', {});
    expect(r.body.P?.list).toHaveLength(6);
    expect(r.body.P?.total).toBe(8);
    expect(r.body.P?.list[0]).toMatchObject({
      Title: '帮助中心全新改版',
      Url: '/helpDetails/news-help-center-revamp.html',
    });
    const times = r.body.P?.list.map((n) => n.publishedAt) ?? [];
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('keeps categories having articles, first 4, per top category', async () => {
    const tut = await callApi('HelpRenovation.ArticleSecondCategoryListV2', {
      topCategory: 0,
    });
    expect(tut.body.P?.list.map((c) => c.type)).toEqual([
      '新手入门',
      'API提取教程',
      '白名单与认证方式',
      '各语言接入示例',
    ]);
    expect(tut.body.P?.list.every((c) => c.articleList.length > 0)).toBe(true);
    const prod = await callApi('HelpRenovation.ArticleSecondCategoryListV2', {
      topCategory: 2,
    });
    expect(prod.body.P?.list.map((c) => c.type)).toEqual(['产品介绍', '计费与套餐', '账户与实名']);
    expect((await callApi('HelpRenovation.ArticleSecondCategoryListV2', { topCategory: 1 })).body.E).toContain(
      '分类只能是',
    );
  });

  it('lists every category including the empty one', async () => {
    const r = await callApi('HelpRenovation.ArticleSecondCategoryList', {});
    expect(r.body.P?.list).toHaveLength(9);
    expect(r.body.P?.list.find((c) => c.url === 'video-tutorials')?.articleCount).toBe(0);
  });

  it('finds articles by keyword, title hits first, wildcards literal', async () => {
    const r = await callApi('HelpRenovation.GetArticleBykw', {
      keyword: '  白名单 ',
    });
    expect(r.body.P?.keyword).toBe('白名单');
    expect(r.body.P?.list[0]?.Title).toContain('白名单');
    expect(r.body.P?.total).toBeGreaterThan(3);
    expect((await callApi('HelpRenovation.GetArticleBykw', { keyword: 'zz%_zz' })).body.P?.total).toBe(0);
    expect((await callApi('HelpRenovation.GetArticleBykw', { keyword: '  ' })).body.E).toBe('请输入搜索关键词');
  });

  it('returns an article by id or url with a sanitised body, neighbours and a view count', async () => {
    const r = await callApi('HelpRenovation.GetArticleById', { id: 105 });
    expect(r.body.P?.article.Title).toBe('提取参数详解');
    expect(r.body.P?.article.category?.type).toBe('API提取教程');
    expect(r.body.P?.related.length).toBeGreaterThan(0);
    const byUrl = await callApi('HelpRenovation.GetArticleById', {
      url: 'extract-parameters',
    });
    expect(byUrl.body.P?.article.id).toBe(105);
    expect((await callApi('HelpRenovation.GetArticleById', { id: 99999 })).body.E).toBe('文章不存在或已下线');

    // Bodies are sanitised when written (docs/decisions/096) and served as stored: a read does not run the sanitiser
    // (which would drop this class attribute).
    await changeArticle(101, { bodyHtml: '<p class="lead">x</p>' });
    const stored = await callApi('HelpRenovation.GetArticleById', { id: 101 });
    expect(stored.body.P?.article.content).toBe('<p class="lead">x</p>');
  });

  it('answers hot, all-titles, first-article, buy-show and type lookups', async () => {
    const hot = await callApi('HelpRenovation.HotArticleTitleList', {});
    expect(hot.body.P?.list.length).toBeGreaterThan(0);
    expect(hot.body.P?.list.every((a) => a.isHot)).toBe(true);
    const all = await callApi('HelpRenovation.AllArticleTitleList', {});
    expect(all.body.P?.list).toHaveLength(35 + 8);
    const first = await callApi('HelpRenovation.FirstArticleList', { articleNum: 3 });
    expect(first.body.P?.list).toHaveLength(8);
    expect(first.body.P?.list.every((c) => c.articleList.length <= 3)).toBe(true);
    const buy = await callApi('HelpRenovation.GetArticleOfBuyShow', {});
    expect(buy.body.P?.list.length).toBeGreaterThan(0);
    const type = await callApi('HelpRenovation.GetTypeById', {
      url: 'faq',
    });
    expect(type.body.P?.category.type).toBe('常见问题');
    expect((await callApi('HelpRenovation.GetTypeById', { id: 77 })).body.E).toBe('帮助分类不存在');
  });
});

describe('shell content', () => {
  it('serves friend links with target and noFollow, dropping unsafe urls', async () => {
    await addFriendLinkRow({
      id: 99,
      name: 'bad',
      url: 'javascript:alert(1)',
      target: '_blank',
      noFollow: true,
      sort: 0,
    });
    const r = await callApi('Link.queryLinks', {});
    expect(r.body.P?.list).toHaveLength(6);
    expect(r.body.P?.list[0]).toEqual({
      linkName: '云枢海外动态代理',
      linkUrl: 'https://global.example-proxy.com',
      linkTarget: '_blank',
      noFollow: false,
    });
    expect(r.body.P?.list.some((l) => l.noFollow)).toBe(true);
  });

  it('serves the current home notice as stored, and none outside its window', async () => {
    const r = await callApi('Notice.getShowHomeNotice', {});
    expect(r.body.P?.notice?.title).toBe('关于加强实名认证与合规使用的公告');
    const stored = await homeNoticeHtml(1);
    expect(stored).toBeTruthy();
    expect(r.body.P?.notice?.content).toBe(stored);
    await endHomeNotices(1);
    expect((await callApi('Notice.getShowHomeNotice', {})).body.P).toEqual({ notice: null });
  });

  it('serves marketing images with the seed field names', async () => {
    const r = await callApi('Activity.GetActivityMarketingImg', {});
    expect(r.body.P?.imges.centerImg).toEqual({
      img: '/images/banner-rebate.svg',
      isClick: true,
      clickUrl: '/rebate',
      inOrOut: 1,
      alt: expect.any(String),
    });
    await disableMarketingImages();
    expect((await callApi('Activity.GetActivityMarketingImg', {})).body.P).toEqual({
      imges: { centerImg: null, bottomBtn2: null },
    });
  });

  it('drops marketing images whose link or picture fails the safe-URL rule', async () => {
    await changeMarketingImages({ clickUrl: 'javascript:alert(1)' }, 'centerImg');
    await changeMarketingImages({ img: 'http://cdn.example.com/b.png' }, 'bottomBtn2');
    expect((await callApi('Activity.GetActivityMarketingImg', {})).body.P).toEqual({
      imges: { centerImg: null, bottomBtn2: null },
    });
    await changeMarketingImages({
      clickUrl: 'https://partner.example.com/',
      inOrOut: 2,
      img: '/images/banner-firms.svg',
    });
    const ok = await callApi('Activity.GetActivityMarketingImg', {});
    expect(ok.body.P?.imges.centerImg?.clickUrl).toBe('https://partner.example.com/');
    // An internal-kind link may not leave the site.
    await changeMarketingImages({ inOrOut: 1 });
    expect((await callApi('Activity.GetActivityMarketingImg', {})).body.P).toEqual({
      imges: { centerImg: null, bottomBtn2: null },
    });
  });

  it('enables online chat on PC only, with the script address', async () => {
    const pc = await callApi('Config.CurrentMessageShow', {}, { headers: { 'source-type': '1' } });
    expect(pc.body.P).toEqual({ res: true, scriptUrl: '/chat-widget.js' });
    const mobile = await callApi('Config.CurrentMessageShow', {}, { headers: { 'source-type': '2' } });
    expect(mobile.body.P).toMatchObject({ res: false });
    await setSiteSetting('online_chat', '0');
    expect((await callApi('Config.CurrentMessageShow', {})).body.P).toMatchObject({ res: false });
  });
});

describe('visitor submissions', () => {
  const consult: ActionInput<'Company.Consult'> = {
    company: '上海示例数据科技有限公司',
    contactName: '王经理',
    phone: '13812345678',
    email: 'wang@example.com',
    scenario: '价格监控',
    monthlyVolume: '100万-1000万IP/月',
    message: '需要华东地区电信线路，日均采集200万次。',
  };

  it('stores a valid consultation and refuses invalid ones with a Chinese reason', async () => {
    const ok = await callApi('Company.Consult', consult);
    expect(ok.body.P?.id).toBeGreaterThan(0);
    const [row] = await storedConsultations();
    expect(row).toEqual({
      company: consult.company,
      phone: consult.phone,
      scenario: '价格监控',
      clientIp: '198.51.100.10',
    });
    expect((await callApi('Company.Consult', { ...consult, phone: '123' })).body.E).toBe('请输入正确的11位手机号');
    expect((await callApi('Company.Consult', { ...consult, company: '' })).body.E).toBe('请填写企业名称');
    expect((await callApiUntyped('Company.Consult', { ...consult, scenario: '挖矿' })).body.E).toBe('请选择业务场景');
    expect((await callApi('Company.Consult', { ...consult, email: 'x@' })).body.E).toBe('请输入正确的邮箱地址');
  });

  it('rate limits consultations per IP', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await callApi('Company.Consult', { ...consult, phone: `1381234567${i}` }, { ip: '203.0.113.9' });
      expect(r.body.E).toBeUndefined();
    }
    const fourth = await callApi('Company.Consult', { ...consult, phone: '13812345679' }, { ip: '203.0.113.9' });
    expect(fourth.body.E).toBe('提交过于频繁，请稍后再试或直接拨打商务热线');
    expect((await callApi('Company.Consult', consult, { ip: '203.0.113.10' })).body.E).toBeUndefined();
  });

  it('records tracking points once per click and event, validated and rate limited', async () => {
    const first = await callApi('Buried.buriedPoint', { bdVid: 'bd123', page: '/', fingerPrint: 'ab12' });
    expect(first.body.P).toEqual({ stored: true });
    expect((await callApi('Buried.buriedPoint', { bdVid: 'bd123', page: '/' })).body.P).toEqual({ stored: false });
    expect((await callApi('Buried.buriedPoint360', { qhclickid: 'qh-1', event: 'register' })).body.P).toEqual({
      stored: true,
    });
    expect((await callApi('Buried.buriedPoint', { bdVid: '<x>' })).body.E).toBe('bdVid格式不正确');
    expect((await callApiUntyped('Buried.buriedPoint360', { qhclickid: 'q', event: 'hack' })).body.E).toBe(
      '事件类型无效',
    );
    expect(await storedTrackingPoints()).toEqual([
      { channel: 'baidu', clickId: 'bd123', event: 'visit' },
      { channel: '360', clickId: 'qh-1', event: 'register' },
    ]);
    for (let i = 0; i < 30; i++) await callApi('Buried.buriedPoint', { bdVid: `v${i}` }, { ip: '203.0.113.50' });
    expect((await callApi('Buried.buriedPoint', { bdVid: 'v-last' }, { ip: '203.0.113.50' })).body.E).toBe(
      '请求过于频繁，请稍后再试',
    );
  });
});
