import { describe, expect, it } from 'vitest';
import { htmlToText, safeHref, sanitizeHtml } from '../../../src/server/domain/html-sanitizer';
import { helpArticles, newsArticles } from '../../../src/server/seed/content/help';

describe('sanitizeHtml', () => {
  it('keeps the allow-listed formatting untouched', () => {
    const html =
      '<h2>标题</h2><p>一段<strong>重点</strong>和<em>强调</em>，<code>num=10</code><br></p><ul><li>一</li></ul>' +
      '<table><thead><tr><th>参数</th></tr></thead><tbody><tr><td colspan="2">值</td></tr></tbody></table>' +
      '<pre><code class="language-python">print(&quot;hi&quot;) &lt;tag&gt;</code></pre><blockquote>提示</blockquote>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('drops script-like elements with their content', () => {
    expect(sanitizeHtml('<p>a</p><script>alert(1)</script><style>p{}</style><iframe src="x"></iframe>b')).toBe(
      '<p>a</p>b',
    );
    expect(sanitizeHtml('<SCRIPT type="x">alert(1)</SCRIPT >ok')).toBe('ok');
    expect(sanitizeHtml('<svg><script>alert(1)</script></svg>x')).toBe('x');
    expect(sanitizeHtml('before<script>never closed')).toBe('before');
  });

  it('removes event handlers, styles and unknown attributes', () => {
    expect(sanitizeHtml('<p onclick="x()" style="color:red" class="c">t</p>')).toBe('<p>t</p>');
    expect(sanitizeHtml('<img src=x onerror=alert(1)>t')).toBe('t');
    expect(sanitizeHtml('<code class="evil x">c</code>')).toBe('<code>c</code>');
  });

  it('keeps only safe link targets and marks external ones', () => {
    expect(sanitizeHtml('<a href="/help">站内</a>')).toBe('<a href="/help">站内</a>');
    expect(sanitizeHtml('<a href="https://example.com/x?a=1&b=2">外链</a>')).toBe(
      '<a href="https://example.com/x?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">外链</a>',
    );
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'jav&#x61;script:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>',
      'vbscript:x',
      '//evil.example',
    ]) {
      expect(sanitizeHtml(`<a href="${bad}">x</a>`)).toBe('<a>x</a>');
    }
  });

  it('escapes stray markup and balances tags', () => {
    expect(sanitizeHtml('1 < 2 & 3 > 2')).toBe('1 &lt; 2 &amp; 3 &gt; 2');
    expect(sanitizeHtml('<p><strong>open')).toBe('<p><strong>open</strong></p>');
    expect(sanitizeHtml('</p>text</em>')).toBe('text');
    expect(sanitizeHtml('<p><em>a</p>b')).toBe('<p><em>a</em></p>b');
    expect(sanitizeHtml('<!-- c --><!DOCTYPE html><?xml x?>t')).toBe('t');
    expect(sanitizeHtml('<a href="/x" title="&quot;><script>">t</a>')).toBe(
      '<a href="/x" title="&quot;&gt;&lt;script&gt;">t</a>',
    );
  });

  it('never lets a tag or handler through in the output', () => {
    const nasty = [
      '<div><img/src/onerror=alert(1)></div>',
      '<p/onmouseover=alert(1)>x',
      '<<script>script>alert(1)<</script>/script>',
      '<a href="javascript&colon;alert(1)">x</a>',
      '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    ];
    for (const n of nasty) {
      const out = sanitizeHtml(n);
      expect(out).not.toMatch(/<(script|img|div|math|mi)\b/i);
      expect(out).not.toMatch(/javascript:/i);
      expect(out).not.toMatch(/\son\w+=/i);
    }
  });

  it('leaves every seeded article body intact (the seed stays within the allow-list)', () => {
    for (const a of [...helpArticles, ...newsArticles]) {
      const out = sanitizeHtml(a.bodyHtml);
      expect(htmlToText(out)).toBe(htmlToText(a.bodyHtml));
      expect(out.match(/<a /g)?.length ?? 0).toBe(a.bodyHtml.match(/<a /g)?.length ?? 0);
    }
  });
});

describe('safeHref', () => {
  it('accepts site paths, anchors and http(s)', () => {
    expect(safeHref('/getProxy/10#api')).toEqual({ href: '/getProxy/10#api', external: false });
    expect(safeHref('#code')?.external).toBe(false);
    expect(safeHref('https://a.example')?.external).toBe(true);
    expect(safeHref('mailto:a@b.cn')?.external).toBe(false);
    expect(safeHref('ftp://x')).toBeNull();
  });
});
