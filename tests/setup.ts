// Applies the D1 migrations to each test file's isolated database.
import { applyD1Migrations, env } from 'cloudflare:test';

declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      KV: KVNamespace;
      FILES: R2Bucket;
      TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
      APP_ENV: string;
    }
  }
}

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
