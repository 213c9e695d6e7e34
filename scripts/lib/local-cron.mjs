// Cron triggers for local runs: `wrangler dev` does not fire the Worker's crons by itself, so `npm start` serves with
// --test-scheduled and this driver calls /__scheduled?cron=... each minute for every wrangler.toml cron that matches
// (UTC, as Cloudflare runs them). Supports the fields the project uses: numbers, lists, ranges, `*` and `*/n`.
import { readFileSync } from 'node:fs';

/** The crons listed under [triggers] in wrangler.toml (the top-level, development ones). */
export function readCrons(file = 'wrangler.toml') {
  const m = /^\[triggers\][^[]*?crons\s*=\s*\[([^\]]*)\]/m.exec(readFileSync(file, 'utf8'));
  return m ? [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]) : [];
}

const fieldMatches = (field, value) =>
  field.split(',').some((part) => {
    const [range, stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    if (range === '*') return value % step === 0;
    const [lo, hi = lo] = range.split('-').map(Number);
    return value >= lo && value <= hi && (value - lo) % step === 0;
  });

/** Whether a 5-field cron expression matches a UTC minute. */
export function cronMatches(expr, d) {
  const [min, hour, dom, mon, dow] = expr.trim().split(/\s+/);
  return (
    fieldMatches(min, d.getUTCMinutes()) &&
    fieldMatches(hour, d.getUTCHours()) &&
    fieldMatches(dom, d.getUTCDate()) &&
    fieldMatches(mon, d.getUTCMonth() + 1) &&
    fieldMatches(dow, d.getUTCDay())
  );
}

/** Fire matching crons at the start of every minute (and `first` once, soon after start). Returns a stop function. */
export function startLocalCron(origin, { crons = readCrons(), first = [], log = console.log } = {}) {
  const fire = (cron) =>
    fetch(`${origin}/__scheduled?cron=${encodeURIComponent(cron)}`).then(
      (r) => log(`local cron ${cron}: ${r.status}`),
      (e) => log(`local cron ${cron} failed: ${e.message}`),
    );
  const kick = setTimeout(() => first.forEach(fire), 15_000);
  let timer;
  const tick = () => {
    const now = new Date();
    for (const c of crons) if (cronMatches(c, now)) void fire(c);
    timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + 50);
  };
  timer = setTimeout(tick, 60_000 - (Date.now() % 60_000) + 50);
  return () => {
    clearTimeout(kick);
    clearTimeout(timer);
  };
}
