// Console content and delivery journeys (docs/decisions/125, 126): a content operator (created by the bootstrap
// command) logs in with TOTP, writes a help article, previews it, publishes it, edits it, and the public help page
// shows the new text at once; an ops operator creates a node and sees its signing secret exactly once.
import { expect, test } from '@playwright/test';
import { consoleLogin, createOperator } from './console';
import { hydrated } from './helpers';

/** The documented bootstrap command creates the operator (no SQL by hand). */
const createRoleOperator = (username: string, role: 'content' | 'ops') =>
  createOperator(username, role === 'content' ? '王编辑' : '赵运维', role);

test('a content operator writes, previews and publishes a help article; an edit shows on the public page at once @server-state', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const tag = `${testInfo.project.name}${Date.now() % 100_000}`;
  const username = `editor_${tag}`;
  const slug = `console-journey-${tag.toLowerCase()}`;
  createRoleOperator(username, 'content');
  await consoleLogin(page, username);
  const nav = page.getByRole('navigation', { name: '运营后台' });
  await expect(nav.getByRole('link', { name: '帮助中心' })).toBeVisible();
  await expect(nav.getByRole('link', { name: '节点' })).toHaveCount(0); // an ops screen

  // A new article: saved hidden, with the body sanitised as the preview showed.
  await nav.getByRole('link', { name: '帮助中心' }).click();
  await hydrated(page);
  await page.getByTestId('article-new').click();
  await hydrated(page);
  const editor = page.getByTestId('article-editor');
  await editor.getByLabel('标题').fill('后台编辑的文章');
  await editor.getByLabel(/^地址/).fill(slug);
  // An expert writes markup in the 源码 view; the preview shows what the save keeps.
  await editor.getByTestId('editor-source-toggle').click();
  await editor.getByLabel('正文源码').fill('<p>第一版正文</p><script>alert(1)</script>');
  await editor.getByTestId('article-preview-tab').click();
  await expect(page.getByTestId('article-preview')).toHaveText('第一版正文');
  await editor.getByTestId('article-save').click();
  await expect(page).toHaveURL(/\/admin\/help\/\d+$/);
  await hydrated(page);
  await expect(page.getByTestId('article-state')).toHaveText('未发布');
  expect((await page.request.get(`/helpDetails/${slug}.html`)).status()).toBe(404);

  // Publish, then edit the published article: the public page shows the new text on the next request.
  await page.getByTestId('article-publish').click();
  await expect(page.getByTestId('article-state')).toHaveText('已发布');
  await hydrated(page);
  // This time with the toolbar, as most editors write: a heading, bold words, a list and a link.
  const body = page.getByTestId('article-editor').getByRole('textbox', { name: '正文', exact: true });
  const toolbar = page.getByRole('toolbar', { name: '格式' });
  await body.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('新的小标题');
  await toolbar.getByRole('button', { name: '标题', exact: true }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(`第二版正文：已更新 ${tag}`);
  await page.keyboard.press('Enter');
  await page.keyboard.type('重点提示');
  await page.keyboard.press('Shift+Home');
  await toolbar.getByRole('button', { name: '加粗' }).click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await toolbar.getByRole('button', { name: '加粗' }).click();
  await toolbar.getByRole('button', { name: '有序列表' }).click();
  await page.keyboard.type('第一步');
  await page.keyboard.press('Enter');
  await page.keyboard.type('第二步');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('帮助首页');
  await page.keyboard.press('Shift+Home');
  await toolbar.getByRole('button', { name: '链接' }).click();
  // A link the sanitiser would drop is refused where it is typed.
  await page.getByLabel('链接地址').fill('javascript:alert(1)');
  await page.getByRole('button', { name: '插入链接' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '链接必须是' })).toBeVisible();
  await page.getByLabel('链接地址').fill('/help');
  await page.getByRole('button', { name: '插入链接' }).click();
  await page.getByTestId('article-save').click();
  await expect(page.getByText('已保存')).toBeVisible();
  await page.screenshot({ path: `.tmp/shots/admin-article-editor-${testInfo.project.name}.png`, fullPage: true });

  const visitor = await (await browser.newContext(baseURL ? { baseURL } : {})).newPage();
  await visitor.goto(`/helpDetails/${slug}.html`);
  await expect(visitor.getByRole('heading', { name: '后台编辑的文章' })).toBeVisible();
  await expect(visitor.getByText(`第二版正文：已更新 ${tag}`)).toBeVisible();
  await expect(visitor.getByText('第一版正文')).toHaveCount(0);
  // What the toolbar made is on the public page, as formatting (not as markup text).
  await expect(visitor.getByRole('heading', { level: 2, name: '新的小标题' })).toBeVisible();
  await expect(visitor.locator('b, strong').filter({ hasText: '重点提示' })).toBeVisible();
  await expect(visitor.locator('.prose-help ol > li')).toHaveText(['第一步', '第二步']);
  await expect(visitor.getByRole('link', { name: '帮助首页' })).toHaveAttribute('href', '/help');
  await expect(visitor.getByText('<h2>')).toHaveCount(0);
  // And the help search finds it by its new text.
  await visitor.goto(`/help/search/${encodeURIComponent(tag)}`);
  await expect(visitor.getByRole('link', { name: /后台编辑的文章/ })).toHaveCount(1);

  // The console's article list: the search finds it, and the shared pager counts what matched and pages the rest.
  await page.goto('/admin/help');
  await hydrated(page);
  const pager = page.getByRole('navigation', { name: '分页' });
  const all = Number(
    (
      await page
        .getByText(/^共 \d+ 条/)
        .first()
        .textContent()
    )?.match(/\d+/)?.[0],
  );
  if (all > 50) {
    await expect(pager).toContainText(`第 1/${Math.ceil(all / 50)} 页`);
    await pager.getByRole('link', { name: '下一页' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(pager).toContainText(`第 2/${Math.ceil(all / 50)} 页`);
  }
  await page.getByRole('search').getByLabel('查找文章').fill(slug);
  await page.getByRole('search').getByRole('button', { name: '筛选' }).click();
  await expect(page.getByTestId('article-table').getByRole('row')).toHaveCount(2); // the header and the one match
  await expect(page.getByText('共 1 条')).toBeVisible();
});

test('an ops operator creates a node and sees its secret once @server-state', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const tag = `${testInfo.project.name}${Date.now() % 100_000}`;
  const username = `ops_${tag}`;
  const nodeName = `journey-${tag}`;
  createRoleOperator(username, 'ops');
  await consoleLogin(page, username);
  await page.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '节点' }).click();
  await hydrated(page);
  const create = page.getByTestId('node-create');
  await create.getByLabel('节点名称').fill(nodeName);
  await create.getByRole('button', { name: '新建节点' }).click();
  const secret = (await page.getByTestId('node-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  await page.screenshot({ path: `.tmp/shots/admin-node-secret-${testInfo.project.name}.png`, fullPage: true });
  await page.getByRole('button', { name: '我已保存' }).click();
  await expect(page.getByTestId('node-table')).toContainText(nodeName);
  // Never again: neither the screen nor the list answer carries the secret.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('node-table')).toContainText(nodeName);
  expect(await page.content()).not.toContain(secret);
  const list = await page.request.post('/api', { data: { A: 'Admin.NodeList', P: {} } });
  expect(await list.text()).not.toContain(secret);

  // Rotation (docs/decisions/162): the dialog offers a 24-hour grace for the old secret (default) or immediate refusal.
  const row = page.getByTestId('node-table').locator('tr').filter({ hasText: nodeName });
  await row.getByRole('button', { name: '轮换密钥' }).click();
  const rotate = page.getByRole('dialog', { name: `轮换「${nodeName}」的密钥` });
  await expect(rotate.getByTestId('rotate-mode')).toContainText('再保留24小时（推荐）');
  await expect(rotate.getByRole('radio', { name: /再保留24小时/ })).toBeChecked();
  await rotate.getByLabel('原因（记入操作日志）').fill('例行轮换');
  await page.screenshot({ path: `.tmp/shots/admin-node-rotate-${testInfo.project.name}.png`, fullPage: true });
  await rotate.getByRole('button', { name: '轮换' }).click();
  const fresh = (await page.getByTestId('node-secret').textContent())?.trim() ?? '';
  expect(fresh).toMatch(/^[0-9a-f]{64}$/);
  expect(fresh).not.toBe(secret);
  await expect(page.getByTestId('node-secret-note')).toContainText('前仍然有效');
  await page.screenshot({ path: `.tmp/shots/admin-node-rotated-${testInfo.project.name}.png`, fullPage: true });
  // Closing the secret must be deliberate: 我已保存 is the only way out.
  const shown = page.getByRole('dialog', { name: '密钥已轮换' });
  await expect(shown.getByRole('button', { name: '取消' })).toHaveCount(0);
  await expect(shown.getByRole('button', { name: '关闭' })).toHaveCount(0);
  await page.getByRole('button', { name: '我已保存' }).click();
  await expect(page.getByTestId('node-old-secret').first()).toContainText('旧密钥有效至');

  // Disabling asks for a reason in the console's own dialog (not the browser's prompt).
  await row.getByRole('button', { name: '停用' }).click();
  const disable = page.getByRole('dialog', { name: `停用「${nodeName}」` });
  await disable.getByLabel('原因（记入操作日志）').fill('机房维护');
  await disable.getByRole('button', { name: '确定' }).click();
  await expect(row).toContainText('已停用');
  await expect(row.getByRole('button', { name: '启用' })).toBeVisible();
});
