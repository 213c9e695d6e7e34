// Unit and integration suites run inside workerd with real local D1/KV/R2 (per-file isolated storage).
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig(async () => {
  const migrations = await readD1Migrations('./migrations');
  return {
    plugins: [
      cloudflareTest({
        main: './src/edge/worker.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // The deployed default is production (wrangler.toml); the suites run in test mode with both envelopes.
          bindings: {
            TEST_MIGRATIONS: migrations,
            APP_ENV: 'test',
            API_ENVELOPE: 'any',
            // The development key sealing node secrets (docs/decisions/162; .dev.vars.example).
            NODE_SECRET_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
          },
        },
      }),
    ],
    // src/server modules import 'server-only' (it fails a client build); the suites run them on the server side.
    resolve: {
      alias: { 'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)) },
    },
    test: {
      include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
      setupFiles: ['./tests/setup.ts'],
      // A time limit here only stops a hung test; speed is measured by the benches (bench/), never asserted. 5 s (the
      // default) was hit by ordinary money tests on a machine loaded to 20+ on 2 cores.
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  };
});
