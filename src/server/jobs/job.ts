// A scheduled job: a name for the logs and the work it does for one cron tick (registered in ./index.ts), and the one
// way a job runs its independent steps: each isolated, so one failing step never stops the others.
import type { Bindings } from '../env';

export interface Job {
  name: string;
  run(env: Bindings, now: number): Promise<unknown>;
}

/** What a step that threw answers in its job's result (the error is logged too). */
export interface StepFailure {
  failed: string;
}

/**
 * Run a job's steps one after another (in the order given), each isolated: a step that throws is logged and answers
 * `{ failed }` in the result, and the steps after it still run.
 */
export async function runSteps<T extends Record<string, () => Promise<unknown>>>(
  job: string,
  steps: T,
): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> | StepFailure }> {
  const out: Record<string, unknown> = {};
  for (const [name, step] of Object.entries(steps)) {
    try {
      out[name] = await step();
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', where: 'job-step', job, step: name, error: String(err) }));
      out[name] = { failed: String(err).slice(0, 300) };
    }
  }
  return out as { [K in keyof T]: Awaited<ReturnType<T[K]>> | StepFailure };
}
