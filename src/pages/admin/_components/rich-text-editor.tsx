'use client';
// The help editor's body field (issue 24): what you see is what the article shows. A contenteditable area with a
// toolbar whose every button makes only elements the server's sanitiser keeps (server/domain/html-sanitizer.ts:
// h2, h3, p, b, i, ul, ol, li, a href, code, pre, blockquote, br; it has no images, so there is no image button), and
// a 源码 view for experts. The value is the same HTML string the plain textarea held: the save sends it to the same
// action, which sanitises it as before. Pasted content arrives as plain text (no foreign markup or styles).
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { messages } from '../../../lib/messages';
import { safeHref } from '../../../lib/safe-href';
import { consoleApi } from './console-api';

type Block = 'h2' | 'h3' | 'p' | 'pre' | 'blockquote';

/** The toolbar: each entry is one editing command of the browser, limited to the sanitiser's elements. */
const BLOCKS: { label: string; block: Block; title: string }[] = [
  { label: '标题', block: 'h2', title: '设为标题' },
  { label: '小标题', block: 'h3', title: '设为小标题' },
  { label: '正文', block: 'p', title: '设为正文段落' },
  { label: '引用', block: 'blockquote', title: '设为引用' },
  { label: '代码块', block: 'pre', title: '设为代码块（多行代码）' },
];
const INLINE: { label: string; command: 'bold' | 'italic' | 'insertUnorderedList' | 'insertOrderedList' }[] = [
  { label: '加粗', command: 'bold' },
  { label: '斜体', command: 'italic' },
  { label: '无序列表', command: 'insertUnorderedList' },
  { label: '有序列表', command: 'insertOrderedList' },
];

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A typed link as the sanitiser will keep it: a bare domain gets https://; null when it would be dropped. */
export function editorHref(raw: string): string | null {
  const typed = raw.trim();
  const withScheme =
    /^[\w-]+(\.[\w-]+)+(?:[/?#].*)?$/.test(typed) && !typed.startsWith('/') ? `https://${typed}` : typed;
  return safeHref(withScheme)?.href ?? null;
}

/**
 * The editing area's HTML as the article stores it: re-parsed, so a block the browser's editing commands left inside a
 * paragraph (<p><ul>…</ul></p>) comes out as the valid HTML the public page will parse it into, without the empty
 * paragraphs that leaves behind.
 */
function tidy(html: string): string {
  const t = document.createElement('template');
  t.innerHTML = html;
  for (const p of Array.from(t.content.querySelectorAll('p'))) if (p.childNodes.length === 0) p.remove();
  return t.innerHTML;
}

function ToolButton({
  children,
  onRun,
  pressed,
  title,
}: {
  children: ReactNode;
  onRun: () => void;
  pressed?: boolean;
  title?: string;
}) {
  return (
    <button
      type="button"
      title={title}
      aria-pressed={pressed}
      // Keep the text selection in the editing area: act on mouse down, never take the focus.
      onMouseDown={(e) => {
        e.preventDefault();
        onRun();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onRun();
        }
      }}
      className="rounded-md px-2 py-1 text-xs text-slate-700 hover:bg-slate-200 aria-pressed:bg-brand-100 aria-pressed:text-brand-700"
    >
      {children}
    </button>
  );
}

export function RichTextEditor({ value, onChange }: { value: string; onChange: (html: string) => void }) {
  const area = useRef<HTMLDivElement>(null);
  const [source, setSource] = useState(false);
  const [active, setActive] = useState<Record<string, boolean>>({});
  // The link being typed, with the selection it will wrap (the toolbar's input takes the focus from the text).
  const [link, setLink] = useState<{ range: Range | null; href: string; error: string | null } | null>(null);
  const [switching, setSwitching] = useState(false);

  // The editing area is the browser's, not React's: its HTML is set when it appears and read back on each input.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the visual view (re)appears, not on every keystroke
  useEffect(() => {
    // An empty article starts with a paragraph, so the first line typed is one.
    if (!source && area.current) area.current.innerHTML = value || '<p><br></p>';
  }, [source]);

  useEffect(() => {
    const onSelection = () => {
      const sel = document.getSelection();
      if (!area.current || !sel || !area.current.contains(sel.anchorNode)) return;
      setActive(Object.fromEntries(INLINE.map((i) => [i.command, document.queryCommandState(i.command)])));
    };
    document.addEventListener('selectionchange', onSelection);
    return () => document.removeEventListener('selectionchange', onSelection);
  }, []);

  const changed = () => {
    if (area.current) onChange(tidy(area.current.innerHTML));
  };
  const run = (command: string, arg?: string) => {
    area.current?.focus();
    // New lines are paragraphs (a <div> would be dropped by the sanitiser and run lines together); no inline styles.
    document.execCommand('defaultParagraphSeparator', false, 'p');
    document.execCommand('styleWithCSS', false, 'false');
    document.execCommand(command, false, arg);
    changed();
  };
  // A block button on a block already of that kind turns it back into a paragraph.
  const block = (tag: Block) =>
    run('formatBlock', tag !== 'p' && document.queryCommandValue('formatBlock').toLowerCase() === tag ? 'p' : tag);
  const inlineCode = () => {
    const text = document.getSelection()?.toString() ?? '';
    run('insertHTML', `<code>${escapeHtml(text || '代码')}</code>`);
  };
  const openLink = () => {
    const sel = document.getSelection();
    const range = sel && sel.rangeCount > 0 && area.current?.contains(sel.anchorNode) ? sel.getRangeAt(0) : null;
    setLink({ range: range?.cloneRange() ?? null, href: '', error: null });
  };
  const applyLink = () => {
    if (!link) return;
    const href = editorHref(link.href);
    if (!href) {
      setLink({ ...link, error: messages.contentLinkUnsafe });
      return;
    }
    area.current?.focus();
    const sel = document.getSelection();
    if (link.range && sel) {
      sel.removeAllRanges();
      sel.addRange(link.range);
    }
    if (!link.range || link.range.collapsed) run('insertHTML', `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>`);
    else run('createLink', href);
    setLink(null);
  };
  // From the source view back to the visual one: show what the save will keep (the server's sanitiser), never the
  // typed markup as is.
  const toggleSource = async () => {
    if (!source) {
      setSource(true);
      return;
    }
    setSwitching(true);
    const res = await consoleApi.call('Admin.ArticlePreview', { bodyHtml: value });
    setSwitching(false);
    if (!res) return;
    onChange(res.html);
    setSource(false);
  };

  return (
    <div data-testid="rich-text-editor">
      <div
        // Stays in view while a long article scrolls.
        className="sticky top-0 z-10 flex flex-wrap items-center gap-1 border-b border-slate-200 bg-slate-50 px-2 py-1.5"
        role="toolbar"
        aria-label="格式"
      >
        {!source && (
          <>
            {BLOCKS.map((b) => (
              <ToolButton key={b.block} title={b.title} onRun={() => block(b.block)}>
                {b.label}
              </ToolButton>
            ))}
            <span className="mx-1 h-4 w-px bg-slate-300" aria-hidden="true" />
            {INLINE.map((i) => (
              <ToolButton key={i.command} pressed={active[i.command] ?? false} onRun={() => run(i.command)}>
                {i.label}
              </ToolButton>
            ))}
            <ToolButton title="把选中的文字标为代码" onRun={inlineCode}>
              代码
            </ToolButton>
            <ToolButton title="把选中的文字设为链接" onRun={openLink}>
              链接
            </ToolButton>
            <ToolButton
              title="去掉选中文字的加粗、斜体和链接"
              onRun={() => {
                run('removeFormat');
                run('unlink');
              }}
            >
              清除格式
            </ToolButton>
          </>
        )}
        <span className="ml-auto" />
        <button
          type="button"
          aria-pressed={source}
          disabled={switching}
          onClick={toggleSource}
          className="rounded-md px-2 py-1 text-xs text-slate-700 hover:bg-slate-200 aria-pressed:bg-slate-700 aria-pressed:text-white"
          data-testid="editor-source-toggle"
        >
          {switching ? '转换中…' : source ? '返回可视编辑' : '源码'}
        </button>
      </div>
      {link && (
        <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-2 py-2">
          <input
            className="input min-w-0 flex-1 py-1 text-sm"
            aria-label="链接地址"
            placeholder="网址或站内路径，如 /help"
            value={link.href}
            // biome-ignore lint/a11y/noAutofocus: the link field opens because the operator asked to type a link
            autoFocus
            onChange={(e) => setLink({ ...link, href: e.target.value, error: null })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                applyLink();
              } else if (e.key === 'Escape') setLink(null);
            }}
          />
          <button type="button" className="btn-primary px-3 py-1 text-xs" onClick={applyLink}>
            插入链接
          </button>
          <button type="button" className="btn-ghost px-3 py-1 text-xs" onClick={() => setLink(null)}>
            取消
          </button>
          {link.error && (
            <p className="w-full text-xs text-rose-600" role="alert">
              {link.error}
            </p>
          )}
        </div>
      )}
      {source ? (
        <textarea
          className="block min-h-80 w-full resize-y rounded-b-xl border-0 p-4 font-mono text-sm focus:outline-none"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-label="正文源码"
          name="bodyHtml"
          spellCheck={false}
        />
      ) : (
        <div
          ref={area}
          role="textbox"
          tabIndex={0}
          aria-multiline="true"
          aria-label="正文"
          contentEditable
          suppressContentEditableWarning
          className="prose-help min-h-80 max-w-none overflow-x-auto p-4 break-words focus:outline-none"
          onFocus={() => document.execCommand('defaultParagraphSeparator', false, 'p')}
          onInput={changed}
          onBlur={changed}
          onPaste={(e) => {
            e.preventDefault();
            run('insertText', e.clipboardData.getData('text/plain'));
          }}
          data-testid="editor-area"
        />
      )}
    </div>
  );
}
