// Waku build configuration: Tailwind, the Cloudflare adapter (via src/server-entry.tsx) and the build id.
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'waku/config';

/**
 * React 19.2's Flight server turns every `<link rel="stylesheet">` it renders (the CSS links @vitejs/plugin-rsc
 * emits) into a preload hint with `as: "stylesheet"`; browsers reject that (`<link rel=preload> must have a valid
 * \`as\` value`) and the stylesheet is not preloaded. Upstream fixed it to `"style"` (react PR 34760, in 19.3);
 * until the React packages move past 19.2 this rewrites the one call in react-server-dom-webpack's server build.
 * It is a no-op once the fixed code is installed.
 */
function flightStylesheetPreloadFix(): Plugin {
  const broken = 'preload(srcSet, "stylesheet",';
  return {
    name: 'flight-stylesheet-preload-as-style',
    transform(code, id) {
      if (!id.includes('react-server-dom-webpack-server') || !code.includes(broken)) return null;
      return { code: code.replaceAll(broken, 'preload(srcSet, "style",'), map: null };
    },
  };
}

const distDir = process.env.DIST_DIR ?? 'dist';
const buildId =
  process.env.BUILD_ID ??
  new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14);

export default defineConfig({
  distDir,
  vite: {
    plugins: [tailwindcss(), flightStylesheetPreloadFix()],
    define: {
      __BUILD_ID__: JSON.stringify(buildId),
    },
    environments: {
      client: {
        // No preload helper: it wrapped every dynamic import with a dependency table (`__vite__mapDeps`, ~1.9 KB gzip
        // on the home page across the entry and the header chunk). The first page's modules are listed by the HTML
        // (src/edge/paint-first.ts); a lazily loaded chunk fetches its own imports when it runs (docs/decisions/175).
        // jotai in one chunk: it is on every page, and Rollup split it into five tiny chunks (store, Provider,
        // useAtom, useAtomValue, useSetAtom), each with its own import/export preamble and request.
        build: {
          modulePreload: false,
          rollupOptions: {
            output: {
              manualChunks: (id: string) => (/[\\/]node_modules[\\/]jotai[\\/]/.test(id) ? 'jotai' : undefined),
            },
          },
        },
      },
      rsc: {
        build: { rollupOptions: { external: ['cloudflare:workers'] } },
      },
      ssr: {
        build: { rollupOptions: { external: ['cloudflare:workers'] } },
      },
    },
  },
});
