// bench:scale, measure: each route loaded beside the trivial route /builds/latest.json in the same wrangler dev, in
// rounds, so every ratio compares the same moment of a noisy machine (docs/decisions/081).
import { TOKEN } from './generate.mjs';

const WARMUP = 40;
/** The demo user's extraction key (the heavy customer). */
export const KEY = 'demo13800138000key0000000000abcd';

const apiCall = (base, A, P) => ({
  url: `${base}/api`,
  init: {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'source-type': '1', cookie: `token=${TOKEN}` },
    body: JSON.stringify({ A, P }),
  },
});
const get = (base, path) => ({ url: `${base}${path}`, init: {} });

export const PLAIN_EXTRACT = 'GET /extract?num=10&format=json';
/** The write floor's row: every extraction's ratio is also read against it. */
export const WRITE_FLOOR = 'D1 floor: one single-row write (reference)';
/** The routes, the trivial one first; `check` says whether a response is a success of that route. */
export const routes = (base, only) =>
  [
    { name: 'GET /builds/latest.json (trivial)', req: get(base, '/builds/latest.json'), trivial: true },
    // The local D1 floor (src/edge/routes/dev.ts, development only): one D1 read, and one single-row D1 write, and nothing
    // else. Measured like every route, so each route's ratio can be read against what touching D1 costs at least.
    { name: 'D1 floor: one read (reference)', req: get(base, '/dev/d1-floor?op=read'), floor: true },
    { name: WRITE_FLOOR, req: get(base, '/dev/d1-floor?op=write'), floor: true },
    { name: PLAIN_EXTRACT, req: get(base, `/extract?key=${KEY}&num=10&format=json`) },
    {
      name: 'GET /extract?num=10&format=json&dedup=1',
      req: get(base, `/extract?key=${KEY}&num=10&format=json&dedup=1`),
    },
    {
      name: 'GET /extract?num=10&format=json&region=广东',
      req: get(base, `/extract?key=${KEY}&num=10&format=json&region=${encodeURIComponent('广东')}`),
    },
    { name: 'ProxyRPC.GetList (records, 24h)', req: apiCall(base, 'ProxyRPC.GetList', { range: '24h' }) },
    { name: 'ProxyRPC.GetList (records, 180d)', req: apiCall(base, 'ProxyRPC.GetList', { range: '180d' }) },
    { name: 'ProxyRPC.GetCharts (24h)', req: apiCall(base, 'ProxyRPC.GetCharts', { range: '24h' }) },
    { name: 'ProxyRPC.GetCharts (30d)', req: apiCall(base, 'ProxyRPC.GetCharts', { range: '30d' }) },
    { name: 'ProxyLog.GetList (IP records)', req: apiCall(base, 'ProxyLog.GetList', {}) },
    { name: 'Order.GetBillList', req: apiCall(base, 'Order.GetBillList', {}) },
    { name: 'Proxy.GetMealCount', req: apiCall(base, 'Proxy.GetMealCount', {}) },
    { name: 'ProxyWhiteList.GetWhiteList', req: apiCall(base, 'ProxyWhiteList.GetWhiteList', {}) },
    { name: 'Notice.getUnReadCount', req: apiCall(base, 'Notice.getUnReadCount', {}) },
  ].filter((r) => r.trivial || r.floor || !only || new RegExp(only).test(r.name));

const ok = async (res) => {
  const text = await res.text();
  if (res.status !== 200) return false;
  try {
    const body = JSON.parse(text);
    if ('code' in body) return body.code === 0;
    return body.E === undefined;
  } catch {
    return false;
  }
};

/** What a failed response said, for the failure counts: `HTTP status code message`. */
const failureOf = async (res) => {
  const text = await res.text();
  let body = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return `${res.status} ${body.code ?? body.E ?? ''} ${body.msg ?? body.M ?? text.slice(0, 80)}`.trim();
};

/** n requests with at most `concurrency` in flight; latencies in ms, failures counted by what they said. */
async function load(req, n, concurrency) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const why = {};
  const worker = async () => {
    while (next < n) {
      next++;
      const t0 = performance.now();
      const res = await fetch(req.url, req.init);
      const good = await ok(res.clone());
      latencies.push(performance.now() - t0);
      if (!good) {
        failures++;
        const w = await failureOf(res);
        why[w] = (why[w] ?? 0) + 1;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const r2 = (x) => Math.round(x * 100) / 100;
  return {
    requests: n,
    failures,
    ...(failures ? { why } : {}),
    rps: r2(n / seconds),
    p50: r2(pct(50)),
    p99: r2(pct(99)),
  };
}

/**
 * One phase on the database under `root`: every route, trivial interleaved so each ratio compares the same moment of a
 * noisy machine.
 */
export async function phase(label, root, { server, routes: list, requests, rounds: roundCount, concurrency }) {
  await server.start(root);
  try {
    for (const r of list) {
      const res = await fetch(r.req.url, r.req.init);
      const text = await res.clone().text();
      if (!(await ok(res))) throw new Error(`${label}: ${r.name} probe failed: ${res.status} ${text.slice(0, 300)}`);
      await load(r.req, WARMUP, concurrency);
    }
    const out = [];
    for (const r of list) {
      if (r.trivial) continue;
      // roundCount rounds of trivial, route, trivial; the round with the median ratio stands for the route, and the
      // spread of the rounds is kept beside it, so one slow moment of the shared machine moves neither.
      const rounds = [];
      for (let k = 0; k < roundCount; k++) {
        const trivial = await load(list[0].req, Math.round(requests / 2), concurrency);
        const route = await load(r.req, requests, concurrency);
        const trivialAfter = await load(list[0].req, Math.round(requests / 2), concurrency);
        const t = {
          rps: Math.round(((trivial.rps + trivialAfter.rps) / 2) * 100) / 100,
          p50: Math.round(((trivial.p50 + trivialAfter.p50) / 2) * 100) / 100,
        };
        rounds.push({ route, t, ratio: +(route.rps / t.rps).toFixed(3) });
      }
      const mid = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
      const why = {};
      for (const { route } of rounds) for (const [w, n] of Object.entries(route.why ?? {})) why[w] = (why[w] ?? 0) + n;
      const failures = rounds.reduce((sum, { route }) => sum + route.failures, 0);
      out.push({
        route: r.name,
        ...mid.route,
        requests: requests * roundCount,
        failures,
        ...(failures ? { why } : {}),
        trivialRps: mid.t.rps,
        trivialP50: mid.t.p50,
        ratio: mid.ratio,
        ratios: rounds.map((x) => x.ratio),
      });
      console.log(
        `  ${label} ${r.name}: p50 ${mid.route.p50} ms, ${mid.route.rps} req/s, ratio ${mid.ratio} (rounds ${rounds
          .map((x) => x.ratio)
          .join(', ')})${failures ? `, failures ${JSON.stringify(why)}` : ''}`,
      );
    }
    return out;
  } finally {
    await server.stop();
  }
}
