// Every 5 minutes: dedicated IPs a node reported unhealthy move to a healthy IP of the same region for users who
// turned on automatic replacement (User.IsAutoReplace), each with a personal notice (docs/decisions/095).
import { replaceUnhealthyFixed } from '../db/fixed';
import type { Job } from './job';

export const fixedAutoReplaceJob: Job = {
  name: 'fixed-auto-replace',
  async run(env, now) {
    return { replaced: await replaceUnhealthyFixed(env.DB, now) };
  },
};
