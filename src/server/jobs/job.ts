// A scheduled job: a name for the logs and the work it does for one cron tick (registered in ./index.ts).
import type { Bindings } from '../env';

export interface Job {
  name: string;
  run(env: Bindings, now: number): Promise<unknown>;
}
