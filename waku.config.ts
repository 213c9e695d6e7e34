// Waku build configuration: Tailwind, the Cloudflare adapter (via src/server-entry.tsx) and the build id.
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'waku/config';

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
    plugins: [tailwindcss()],
    define: {
      __BUILD_ID__: JSON.stringify(buildId),
    },
    environments: {
      rsc: {
        build: { rollupOptions: { external: ['cloudflare:workers'] } },
      },
      ssr: {
        build: { rollupOptions: { external: ['cloudflare:workers'] } },
      },
    },
  },
});
