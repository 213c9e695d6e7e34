// Scheduled work (cron triggers in wrangler.toml). Each job registers here under the cron it runs on; one failing job
// never stops the others.
import 'server-only';
import type { Bindings } from '../env';
import { autoRenewJob } from './auto-renew';
import { sealCredentialsJob } from './credentials';
import { deliveryUpkeepJob, usageRollupJob } from './delivery';
import { fixedAutoReplaceJob } from './fixed-replace';
import type { Job } from './job';
import { sealNodeSecretsJob } from './node-secrets';
import { noticeSmsJob } from './notice-sms';
import { closeExpiredOrdersJob, reconcilePaymentsJob, refundDuplicatePaymentsJob } from './payments';
import { archiveJob, retentionJob } from './retention';
import { purgeSessionsJob } from './sessions';

/** Jobs by cron expression (must match [triggers] crons in wrangler.toml). */
export const JOBS: Record<string, Job[]> = {
  '*/5 * * * *': [
    closeExpiredOrdersJob,
    reconcilePaymentsJob,
    refundDuplicatePaymentsJob,
    deliveryUpkeepJob,
    fixedAutoReplaceJob,
    sealNodeSecretsJob,
    sealCredentialsJob,
    noticeSmsJob,
  ],
  '7 * * * *': [usageRollupJob, archiveJob, autoRenewJob],
  '17 3 * * *': [purgeSessionsJob, retentionJob],
};

/** Run every job of a cron; logs each outcome. */
export async function runScheduledJobs(cron: string, env: Bindings, now = Date.now()): Promise<void> {
  for (const job of JOBS[cron] ?? []) {
    try {
      const result = await job.run(env, now);
      console.log(JSON.stringify({ level: 'info', where: 'job', job: job.name, cron, result }));
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', where: 'job', job: job.name, cron, error: String(err) }));
    }
  }
}
