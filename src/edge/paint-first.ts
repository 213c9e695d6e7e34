// Paint first, then fetch the page's JavaScript (docs/decisions/175). Waku's HTML asks for every module of the page in
// <head> (`<link rel="modulepreload">`, some 90 KB gzip) and its bootstrap script imports the entry at once, so on a
// fast connection the modules download and hydration starts before the browser has painted the server-rendered
// content, and on a slow one they compete with the stylesheet for the first paint. The pages are complete HTML (every
// link works before hydration), so the first paint does not need them: this rewrite takes the module preloads out of
// <head> and makes the bootstrap request the same modules right after the first contentful paint (the entry first,
// then the preloads one per task).
//
// Only the preloads before the bootstrap script move; any streamed later stay as they are. If the bootstrap does not
// end in Waku's `import("…")` (a framework upgrade changed it), it is left alone and the modules are fetched by the
// entry's own imports instead: slower, never broken.

const BOOTSTRAP_IMPORT = /import\(\s*(["'])([^"']+)\1\s*\)\s*;?\s*$/;

/**
 * Module preloads the loader adds per task. Starting a request costs the main thread a few milliseconds each on a
 * throttled phone (Blink's resource fetcher; up to ~14 ms each under Lighthouse's 4x CPU slowdown on a busy machine),
 * so the 10-20 preloads of a page added in one go made one task of up to 230 ms right after the first paint, and even
 * two per task reached 110 ms; one per task stays under the 50 ms long-task line (docs/decisions/183).
 */
const PRELOADS_PER_TASK = 1;

/**
 * The loader that replaces the bootstrap's `import(entry)`: the entry, then the preloads one per task, once the
 * browser reports the first contentful paint (its timestamp is the presentation time, so nothing of the JavaScript is
 * on the wire before the content is on screen); after the next frame where paint timing is not supported; at once in
 * a hidden tab (no frame comes there), when the tab changes visibility, and after 3 s whatever happened.
 */
export function paintFirstLoader(entry: string, preloads: readonly string[]): string {
  const json = (v: unknown) => JSON.stringify(v).replaceAll('<', '\\u003c');
  return (
    `((u,p)=>{const n=document.currentScript?.nonce;let s=0,i=0;` +
    `const more=()=>{for(const e=i+${PRELOADS_PER_TASK};i<e&&i<p.length;i++){const l=document.createElement("link");` +
    `l.rel="modulepreload";l.href=p[i];l.crossOrigin="";if(n)l.nonce=n;document.head.append(l)}` +
    `if(i<p.length)setTimeout(more,0)};` +
    `const go=()=>{if(s++)return;import(u);setTimeout(more,0)};` +
    `if(document.visibilityState==="hidden")return go();` +
    `document.addEventListener("visibilitychange",go,{once:true});setTimeout(go,3e3);` +
    `if(PerformanceObserver.supportedEntryTypes?.includes("paint"))new PerformanceObserver((l,o)=>{` +
    `if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}})` +
    `.observe({type:"paint",buffered:true});else requestAnimationFrame(()=>setTimeout(go,0))` +
    `})(${json(entry)},${json(preloads)})`
  );
}

/** Registers the rewrite on an HTMLRewriter that processes one HTML response. */
export function paintFirstScripts(rewriter: HTMLRewriter): HTMLRewriter {
  const preloads: string[] = [];
  let bootstrapDone = false;
  let text = '';
  return rewriter
    .on('head link[rel="modulepreload"]', {
      element(el) {
        const href = el.getAttribute('href');
        if (bootstrapDone || !href) return;
        preloads.push(href);
        el.remove();
      },
    })
    .on('script#_R_', {
      text(chunk) {
        text += chunk.text;
        chunk.remove();
        if (!chunk.lastInTextNode) return;
        bootstrapDone = true;
        const m = BOOTSTRAP_IMPORT.exec(text);
        const entry = m?.[2];
        const out =
          m && entry
            ? text.slice(0, m.index) +
              paintFirstLoader(
                entry,
                preloads.filter((h) => h !== entry),
              )
            : text;
        chunk.replace(out, { html: true });
      },
    });
}
