// Usage and refusal reports: counted in memory, cut into batches with stable ids, written to a spool directory
// before they are pushed, retried with backoff until the portal stores them (docs/node-api.md, "POST /node/v2/usage").
// A batch keeps its id across retries and restarts, and the portal is idempotent per (node, batchId), so a batch whose
// answer was lost is counted once.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from './log.ts';
import { type PortalClient, PortalError } from './portal.ts';
import {
  MAX_BATCH_ROWS,
  MAX_NODE_BODY_BYTES,
  MAX_REFUSAL_COUNT,
  type RefusalBatch,
  type RefusedConnection,
  type RefusalRow,
  type ReportAnswer,
  type UsageBatch,
  type UsageRow,
} from './wire.ts';

// The batches' shapes are the wire protocol's (wire.ts, shared with the portal).
export type { RefusalRow, RefusedConnection, UsageRow };
type Spooled = { kind: 'usage' | 'refusals'; file: string };

const MAX_ROWS = MAX_BATCH_ROWS;
/** A batch's rows take at most this many bytes of JSON (the rest of the body is its id and period). */
const MAX_ROW_BYTES = MAX_NODE_BODY_BYTES - 4096;

/** Rows cut into batches of at most MAX_ROWS rows and MAX_ROW_BYTES bytes of JSON (the portal's body limit). */
export function batchesOf<T>(rows: T[], maxBytes = MAX_ROW_BYTES): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (batch.length > 0 && (batch.length === MAX_ROWS || bytes + size > maxBytes)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(row);
    bytes += size;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}
/**
 * Refusal rows are capped in memory between cuts (a flood of bad clients must not exhaust memory). Repeated refusals of
 * one client, exit, user and code are one row with a count (decision 251), so the cap bounds distinct rows: a client
 * refused thousands of times a second takes one, and only a cut with more distinct ones drops refusals.
 */
export const MAX_REFUSALS_PER_CUT = 20_000;

export class Reporter {
  private usage = new Map<string, UsageRow>();
  private refusals = new Map<string, RefusalRow>();
  private droppedRefusals = 0;
  private periodStart = Date.now();
  private seq = 0;
  private failures = 0;
  private nextTryAt = 0;
  private flushing: Promise<void> | null = null;
  readonly dir: string;
  stats = { usageBatchesSent: 0, refusalBatchesSent: 0, duplicates: 0, dropped: 0 };

  private nodeId: number;
  private client: PortalClient;
  private maxBytes: number;
  private log: Logger;

  constructor(opts: { dir: string; nodeId: number; client: PortalClient; maxBytes: number; log: Logger }) {
    this.dir = opts.dir;
    this.nodeId = opts.nodeId;
    this.client = opts.client;
    this.maxBytes = opts.maxBytes;
    this.log = opts.log;
    mkdirSync(this.dir, { recursive: true });
    mkdirSync(join(this.dir, 'rejected'), { recursive: true });
    // New files (cuts, the halves of a split batch) are numbered after every file spooled before a restart, so none
    // is ever written over one still waiting.
    this.seq = Math.max(0, ...this.pendingFiles().map((f) => Number(f.file.split('/').pop()?.split(/[-.]/)[2] ?? 0)));
  }

  addUsage(r: UsageRow): void {
    if (r.bytesIn === 0 && r.bytesOut === 0 && r.connections === 0) return;
    const key = `${r.userId}|${r.ip}|${r.port}|${r.clientIp}`;
    const row = this.usage.get(key);
    if (row) {
      row.bytesIn += r.bytesIn;
      row.bytesOut += r.bytesOut;
      row.connections += r.connections;
    } else this.usage.set(key, { ...r });
  }

  /** Counts a refused connection on the row of its client, exit, user and code in this period (decision 251). */
  addRefusal(r: RefusedConnection): void {
    const key = `${r.userId ?? ''}|${r.ip}|${r.port}|${r.clientIp}|${r.code}`;
    const row = this.refusals.get(key);
    if (row && row.count < MAX_REFUSAL_COUNT) {
      row.count++;
      row.lastAt = Math.max(row.lastAt ?? row.at, r.at);
      return;
    }
    // A row at the bound is sent as it is; the next refusals count on a row of their own (under a key of its own).
    if (row) this.refusals.set(`${key}|${r.at}|${this.refusals.size}`, row);
    if (this.refusals.size >= MAX_REFUSALS_PER_CUT) {
      if (row) this.refusals.delete(key);
      this.droppedRefusals++;
      return;
    }
    this.refusals.set(key, { ...r, count: 1, lastAt: r.at });
  }

  pendingFiles(): Spooled[] {
    return readdirSync(this.dir)
      .filter((f) => /^(usage|refusals)-\d+-\d+\.json$/.test(f))
      .map((f) => ({ f, parts: f.split(/[-.]/) }))
      .sort((a, b) => Number(a.parts[1]) - Number(b.parts[1]) || Number(a.parts[2]) - Number(b.parts[2]))
      .map(({ f }) => f)
      .map((f) => ({ kind: f.startsWith('usage') ? 'usage' : 'refusals', file: join(this.dir, f) }));
  }

  private write(kind: 'usage' | 'refusals', at: number, seq: number, body: UsageBatch | RefusalBatch): void {
    const name = `${kind}-${String(at).padStart(15, '0')}-${seq}.json`;
    const tmp = join(this.dir, `.${name}.tmp`);
    writeFileSync(tmp, JSON.stringify(body));
    renameSync(tmp, join(this.dir, name));
  }

  /** Cuts what was counted into batches on disk; the in-memory counters start over. */
  cut(now = Date.now()): void {
    const periodStart = this.periodStart;
    const periodEnd = Math.max(now, periodStart + 1);
    const rows = [...this.usage.values()];
    this.usage.clear();
    this.periodStart = periodEnd;
    for (const batch of batchesOf(rows)) {
      const seq = ++this.seq;
      this.write('usage', periodStart, seq, {
        batchId: `n${this.nodeId}-${periodStart}-${seq}`,
        periodStart,
        periodEnd,
        rows: batch,
      });
    }
    const refusals = [...this.refusals.values()];
    this.refusals = new Map();
    if (this.droppedRefusals) {
      this.log.warn('refusals dropped (too many between two cuts)', { count: this.droppedRefusals });
      this.droppedRefusals = 0;
    }
    for (const batch of batchesOf(refusals)) {
      const seq = ++this.seq;
      this.write('refusals', periodStart, seq, {
        batchId: `n${this.nodeId}-r-${periodStart}-${seq}`,
        rows: batch,
      });
    }
    this.enforceCap();
  }

  /** Keeps the spool under its cap: the oldest refusal batches go first, then the oldest usage batches. */
  private enforceCap(): void {
    const files = this.pendingFiles().map((s) => ({ ...s, size: statSync(s.file).size }));
    let total = files.reduce((a, f) => a + f.size, 0);
    if (total <= this.maxBytes) return;
    for (const kind of ['refusals', 'usage'] as const)
      for (const f of files.filter((x) => x.kind === kind)) {
        if (total <= this.maxBytes) return;
        unlinkSync(f.file);
        total -= f.size;
        this.stats.dropped++;
        this.log.error('spool over its cap: batch dropped unsent', { file: f.file, kind, bytes: f.size });
      }
  }

  /** Pushes spooled batches in order; stops at the first failure and backs off. */
  flush(force = false): Promise<void> {
    if (this.flushing) return this.flushing;
    if (!force && Date.now() < this.nextTryAt) return Promise.resolve();
    this.flushing = this.doFlush().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async doFlush(): Promise<void> {
    for (const s of this.pendingFiles()) {
      let body: UsageBatch | RefusalBatch;
      try {
        body = JSON.parse(readFileSync(s.file, 'utf8'));
      } catch {
        renameSync(s.file, join(this.dir, 'rejected', s.file.split('/').pop() ?? 'unreadable.json'));
        continue;
      }
      try {
        const answer = await this.client.call<ReportAnswer>('POST', `/node/v2/${s.kind}`, body);
        unlinkSync(s.file);
        if (answer?.duplicate) this.stats.duplicates++;
        if (s.kind === 'usage') this.stats.usageBatchesSent++;
        else this.stats.refusalBatchesSent++;
        this.failures = 0;
        this.log.debug('batch delivered', { batchId: body.batchId, kind: s.kind, duplicate: !!answer?.duplicate });
      } catch (e) {
        const status = e instanceof PortalError ? e.status : 0;
        if (status === 413 && body.rows.length > 1 && body.batchId.length <= 60) {
          // Too large for the portal (a batch spooled by a node that cut by rows only): two halves, each with an id
          // of its own (the portal never stored this one), sent next.
          const [, at = Date.now()] = (s.file.split('/').pop() ?? '').split(/[-.]/).map(Number);
          // The halves' names come after every spooled file's (this.seq starts past them): never over a waiting one.
          const half = Math.ceil(body.rows.length / 2);
          const halves = [body.rows.slice(0, half), body.rows.slice(half)];
          halves.forEach((rows, k) => {
            this.write(s.kind, at, ++this.seq, { ...body, batchId: `${body.batchId}.${k}`, rows } as
              | UsageBatch
              | RefusalBatch);
          });
          unlinkSync(s.file);
          this.log.warn('batch too large for the portal: split in two', { batchId: body.batchId });
          return this.doFlush();
        }
        if (status === 400 || status === 413) {
          // The portal will never accept this body: keep it aside for the operator instead of retrying forever.
          renameSync(s.file, join(this.dir, 'rejected', s.file.split('/').pop() ?? 'rejected.json'));
          this.log.error('batch rejected by the portal', {
            batchId: body.batchId,
            status,
            error: (e as Error).message,
          });
          continue;
        }
        this.failures++;
        const delay = Math.min(60_000, 1000 * 2 ** Math.min(this.failures - 1, 6)) * (0.75 + Math.random() / 2);
        this.nextTryAt = Date.now() + delay;
        this.log.warn('batch push failed, will retry', {
          batchId: body.batchId,
          error: (e as Error).message,
          retryInMs: Math.round(delay),
        });
        return;
      }
    }
  }
}
