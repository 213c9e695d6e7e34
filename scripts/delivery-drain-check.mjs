// Moving an existing database to the objects (docs/delivery.md "Moving an existing database", issue 26 item 7): after
// the deploy, new calls go to the customer and node objects (decisions 243-248) and the hourly archive step moves D1's
// older delivery rows to R2, verified batch by batch. This prints what D1 still holds of that history, table by table,
// and whether it has drained (nothing left that the archive step has not yet copied), read-only.
// Usage: node scripts/delivery-drain-check.mjs [--remote] [--env=production]   (local state without --remote)
import { execFileSync } from 'node:child_process';
import { arg, flag } from './lib/args.mjs';

const remote = flag('remote');
const envName = arg('env', remote ? 'production' : '');
const DAY_MS = 86_400_000;
const HOT_DAYS = 7;
const now = Date.now();
// The archive's cutoff (archive/copy.ts hotCutoff): 北京时间 midnight HOT_DAYS back.
const shanghaiMidnight = (ms) => ms - ((((ms + 8 * 3_600_000) % DAY_MS) + DAY_MS) % DAY_MS);
const cutoff = shanghaiMidnight(now) - HOT_DAYS * DAY_MS;

const query = (sql) => {
  const args = ['wrangler', 'd1', 'execute', 'DB', '--json', '--command', sql, remote ? '--remote' : '--local'];
  if (envName) args.push('--env', envName);
  const out = execFileSync('npx', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out)[0]?.results ?? [];
};

const rows = query(`SELECT
  (SELECT count(*) FROM ip_assignments) AS leases,
  (SELECT count(*) FROM ip_assignments WHERE expires_at < ${cutoff}) AS leases_due,
  (SELECT count(*) FROM extract_logs) AS calls,
  (SELECT count(*) FROM extract_logs WHERE created_at < ${cutoff}) AS calls_due,
  (SELECT count(*) FROM node_usage WHERE period_start < ${cutoff - DAY_MS}) AS usage_due,
  (SELECT count(*) FROM node_refusals WHERE at < ${cutoff}) AS refusals_due,
  (SELECT count(*) FROM extract_receipts WHERE created_at < ${now - 60_000}) AS receipts_stuck,
  (SELECT count(*) FROM archive_objects) AS archive_objects,
  (SELECT coalesce(sum(rows), 0) FROM archive_objects) AS archived_rows`)[0];

const lines = [
  ['leases in D1 (ip_assignments)', rows.leases, `${rows.leases_due} ended before the cutoff`],
  ['calls in D1 (extract_logs)', rows.calls, `${rows.calls_due} older than the cutoff`],
  ['usage rows past the window', rows.usage_due, 'the archive step moves them'],
  ['refusals past the window', rows.refusals_due, 'the archive step moves them'],
  ['receipts older than a minute', rows.receipts_stuck, 'the delivery job hands them to the objects'],
  ['archive objects / rows archived', `${rows.archive_objects} / ${rows.archived_rows}`, ''],
];
console.log(`D1 ${remote ? `remote (${envName})` : 'local'} · cutoff ${new Date(cutoff).toISOString()}`);
for (const [what, n, note] of lines) console.log(`  ${what.padEnd(34)} ${String(n).padStart(10)}  ${note}`);
const due = rows.leases_due + rows.calls_due + rows.usage_due + rows.refusals_due + rows.receipts_stuck;
console.log(
  due === 0
    ? 'drained: D1 holds no delivery history past the hot window; what is left is younger and leaves with the next days.'
    : `not drained: ${due} rows still to move; the hourly archive step (7 * * * *) moves them in bounded batches.`,
);
