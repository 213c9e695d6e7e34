// The extraction flow behind GET /extract: key -> rate limit -> white list -> package -> IPs -> conditional charge ->
// log. Every quota change is a conditional UPDATE checked by its affected rows; nothing is read-modify-write.

import type { AppError } from '../../lib/errors';
import { shanghaiDay } from '../../lib/time';
import { hashPlainApiKey } from '../db/credentials';
import {
  type AssignmentRow,
  countRefusalHour,
  type ExtractCallerRef,
  extractInOneBatch,
  insertExtractLog,
  type OneBatchOutcome,
  type PackageForExtract,
  receiptIps,
  receiptOfCall,
  userIdOfKeyHash,
} from '../db/extract';
import { type CustomerRecordsNamespace, customerRecords, type Receipt } from '../objects/customer-records';
import { hashExtractKey } from './credential-secrets';
import { assertKeyNotThrottled, keyFailed } from './extract-key-throttle';
import {
  type ExtractedIp,
  type ExtractParams,
  extractCodeOf,
  extractError,
  isExtractError,
  PROTOCOL_BITS,
  parseExtractQuery,
} from './extract-params';
import { extractCaller } from './extract-token';
import { normalizeIp } from './white-list-ip';

/** IPs a package can still give on `day` (Infinity for an unlimited time package). */
export function availableQuota(p: PackageForExtract, day: string, now: number): number {
  if (p.startsAt > now || p.expiresAt <= now) return 0;
  if (p.billingMethod === 1) return p.remainingCount;
  if (p.state !== 1) return 0;
  if (p.dailyLimit === 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, p.dailyLimit - (p.usageDay === day ? p.usedToday : 0));
}

/**
 * The packages to try for n IPs, soonest-expiring first (use it before it lapses), or the error to answer:
 * 1003 when the user holds no live package of the type, 1004 when none has n IPs left.
 */
export function choosePackages(
  packages: PackageForExtract[],
  n: number,
  day: string,
  now: number,
): PackageForExtract[] {
  const live = packages.filter((p) => p.startsAt <= now && p.expiresAt > now);
  if (live.length === 0) throw extractError(1003);
  const usable = live.filter((p) => availableQuota(p, day, now) >= n);
  if (usable.length === 0) throw extractError(1004);
  return usable;
}

export interface ExtractRequest {
  query: URLSearchParams;
  callerIp: string;
  now: number;
  /** NODE_SECRET_KEY: extraction keys are looked up by their keyed hash (docs/decisions/199). */
  keyHex: string;
  /** Set on the one rerun after a plain legacy key was hashed. */
  legacyRetried?: boolean;
  /** The customer objects that keep the records (decision 243). */
  records?: CustomerRecordsNamespace;
}

export interface ExtractSuccess {
  params: ExtractParams;
  ips: ExtractedIp[];
}

/** Key hash -> user id, learnt in this isolate (a key hash belongs to one user for ever; status is checked in D1). */
const owners = new Map<string, number>();

/** The user behind a caller (for routing a dedup call to its object); null for an unknown key. */
async function ownerOf(db: D1Database, caller: ExtractCallerRef): Promise<number | null> {
  if ('userId' in caller) return caller.userId;
  const known = owners.get(caller.apiKeyHash);
  if (known !== undefined) return known;
  const id = await userIdOfKeyHash(db, caller.apiKeyHash);
  if (id !== null) {
    if (owners.size >= 10_000) owners.clear();
    owners.set(caller.apiKeyHash, id);
  }
  return id;
}

/**
 * What D1 charged for one customer's dedup call, by the id the Worker gave the call (decision 253): the IPs of its
 * receipt while D1 holds it (with the receipt, not yet kept), else of the call the customer's object kept (it deletes a
 * receipt from D1 only after keeping it, so one of the two holds every charged call); null when neither does (the call
 * was not charged). Throws when the object cannot be asked.
 */
export async function chargedDedupCall(
  db: D1Database,
  ns: CustomerRecordsNamespace,
  userId: number,
  callId: string,
): Promise<{ ips: AssignmentRow[]; receipt: Receipt | null } | null> {
  const receipt = await receiptOfCall(db, userId, callId);
  if (receipt) {
    return { ips: receiptIps(receipt), receipt };
  }
  const kept = await customerRecords(ns, userId).keptCall(callId);
  return kept ? { ips: kept, receipt: null } : null;
}

/** The IPs a charged call answers. */
const answered = (ips: AssignmentRow[]): ExtractedIp[] =>
  ips.map(({ ip, port, region, carrier, expiresAt }) => ({ ip, port, region, carrier, expiresAt }));

/** Receipts waiting to be handed to their customer's object, per user id, in this isolate (while one hand-over runs). */
const pendingReceipts = new Map<number, Receipt[]>();

/**
 * Hand a charged call's receipt to its customer's object off the path (decision 243), at once: the lease reaches the
 * node's object a few tens of ms after the answer, before the customer's first connection asks the node (a 250 ms
 * batch made a connection opened right after the answer wait past the node's early pull and be refused). Receipts of
 * the same customer answered while a hand-over is on its way join the next one, so a busy customer's calls still go
 * in batches. A hand-over is tried once more a second later (an object reset by a deploy); after that the delivery
 * job's repair (or the customer's next records read) keeps it.
 */
/** How long a hand-over waits before it starts (0: at once). Tests that read a call before its hand-over hold it. */
let handOverDelayMs = 0;
export const holdHandOvers = (ms: number): void => {
  handOverDelayMs = ms;
};

function handOver(ns: CustomerRecordsNamespace, receipt: Receipt, defer: (p: Promise<unknown>) => void): void {
  const open = pendingReceipts.get(receipt.userId);
  if (open) {
    open.push(receipt);
    return;
  }
  const queue = [receipt];
  pendingReceipts.set(receipt.userId, queue);
  defer(
    (async () => {
      try {
        if (handOverDelayMs > 0) await new Promise((r) => setTimeout(r, handOverDelayMs));
        while (queue.length > 0) {
          const batch = queue.splice(0);
          const keep = () => customerRecords(ns, receipt.userId).record(batch);
          await keep().catch(() => new Promise((r) => setTimeout(r, 1_000)).then(keep));
        }
      } finally {
        pendingReceipts.delete(receipt.userId);
      }
    })(),
  );
}

/** The query string as logged: everything but the key and the AES token. */
const loggedQuery = (q: URLSearchParams) => {
  const copy = new URLSearchParams(q);
  copy.delete('key');
  copy.delete('token');
  return copy.toString().slice(0, 500);
};

/**
 * Run one extraction. Throws the extraction error (extractError) for every refusal (failed calls are logged through `defer`).
 *
 * A bare-key call with valid parameters costs one D1 round trip (docs/decisions/171): one batch that looks the key up,
 * counts the call against the rate limit, draws the IPs, chooses the package, charges it conditionally and records the
 * call, every statement conditional on the key and every write on the charge (extractInOneBatch). When nothing was
 * charged, the refusal is named afterwards from what the same batch read, in the order of the codes of decision 131.
 * AES token calls and calls with a parameter error prove the caller first (extractCaller), as before.
 */
export async function extract(
  db: D1Database,
  req: ExtractRequest,
  defer: (p: Promise<unknown>) => void,
): Promise<ExtractSuccess> {
  const callerIp = normalizeIp(req.callerIp) ?? req.callerIp;
  // Wrong keys and tokens are throttled per calling IP before any lookup (docs/decisions/081).
  assertKeyNotThrottled(callerIp, req.now);
  const wrongKey = async (err: unknown): Promise<never> => {
    throw isExtractError(err) ? await keyFailed(db, callerIp, req.now, err) : err;
  };
  let parsed: ExtractParams | AppError;
  try {
    parsed = parseExtractQuery(req.query);
  } catch (err) {
    if (!isExtractError(err)) throw err;
    parsed = err;
  }
  const key = req.query.get('key') ?? '';
  const byKey = !req.query.has('token') && !isExtractError(parsed);
  if (byKey && !/^[A-Za-z0-9]{16,64}$/.test(key)) await wrongKey(extractError(1001));
  // One HMAC per call: the batch looks the key up by its hash.
  let caller: ExtractCallerRef = { apiKeyHash: byKey ? await hashExtractKey(req.keyHex, key) : '' };
  if (!byKey) {
    try {
      caller = await extractCaller(db, req.keyHex, req.query, req.now);
    } catch (err) {
      await wrongKey(err);
    }
  }
  let userId = 'userId' in caller ? caller.userId : 0;
  const params = isExtractError(parsed) ? null : parsed;
  const fail = async (err: AppError, packageId: number | null = null): Promise<never> => {
    const entry = {
      packageId,
      productType: params?.type ?? 10,
      clientIp: callerIp,
      requested: params?.num ?? 0,
      code: extractCodeOf(err) ?? 500,
      query: loggedQuery(req.query),
      now: req.now,
    };
    // Decision 243: a known customer's refusal is logged by its object (D1 counts it in the hour's counter only),
    // before the refused answer leaves, so the customer's next records read sees it (decision 247).
    if (userId > 0 && req.records) {
      defer(countRefusalHour(db, userId, req.now));
      // A log that fails leaves the refusal's answer as it is (the hour's counter still counts the call).
      await customerRecords(req.records, userId)
        .logRefusal(entry)
        .catch((e) => console.error(JSON.stringify({ level: 'error', where: 'refusal-log', error: String(e) })));
    } else defer(insertExtractLog(db, { ...entry, userId, returned: 0 }));
    throw err;
  };
  if (isExtractError(parsed)) await fail(parsed);
  const p = parsed as ExtractParams;
  const day = shanghaiDay(req.now);
  const batchCall = {
    second: Math.floor(req.now / 1000),
    callerIp,
    productType: p.type,
    packageId: p.packageId,
    now: req.now,
    day,
    protocol: p.protocol,
    query: loggedQuery(req.query),
    requested: p.num,
    minTtlSeconds: p.minTtl,
    filter: {
      pool: p.type,
      protocolBit: PROTOCOL_BITS[p.protocol],
      minExpiresAt: req.now + p.minTtl * 1000,
      regions: p.regions,
      excludes: p.excludes,
      carriers: p.carriers,
      limit: p.num,
      excludeDay: p.dedup === 1 ? day : null,
      excludeInUseAt: p.dedup === 2 ? req.now : null,
      userId,
    },
  };
  // Decision 243: a dedup call is answered by the customer's object, which holds the customer's lease history.
  const owner = p.dedup !== 0 && req.records ? await ownerOf(db, caller) : null;
  let answer: OneBatchOutcome | 'busy';
  if (owner !== null && req.records) {
    // Decision 253: the call's id goes into its receipt. When the object breaks after D1 charged the call (a reset by
    // a deploy, a lost connection), the Worker answers the IPs charged, found by that id; the receipt reaches the
    // object by the existing repair (the delivery job, the next records read). A call not charged answers the error.
    const callId = crypto.randomUUID();
    try {
      // (The RPC's result type loses the receipt's tuple types; the receipt is handed on as it came.)
      answer = (await customerRecords(req.records, owner).extractDedup(caller, { ...batchCall, callId })) as
        | OneBatchOutcome
        | 'busy';
    } catch (err) {
      const found = await chargedDedupCall(db, req.records, owner, callId).catch(() => null);
      if (!found) throw err;
      console.error(
        JSON.stringify({ level: 'error', where: 'dedup-answer-recovered', userId: owner, error: String(err) }),
      );
      // A receipt not kept yet goes to the object as a plain call's does, so its leases reach the node at once.
      if (found.receipt) handOver(req.records, found.receipt, defer);
      return { params: p, ips: answered(found.ips) };
    }
  } else answer = await extractInOneBatch(db, caller, batchCall);
  if (answer === 'busy') {
    userId = owner ?? 0;
    return await fail(extractError(1005));
  }
  const outcome = answer;
  if (outcome.charged) {
    const receipt = outcome.charged.receipt as Receipt;
    // A dedup call's object kept its call already.
    if (req.records && owner === null) handOver(req.records, receipt, defer);
    return { params: p, ips: answered(outcome.charged.ips) };
  }
  // Not charged: name the refusal from what the batch read, in the order of the codes (docs/decisions/131, 171).
  if (outcome.userId === null) {
    // A key stored in plain from before migration 0029 is hashed by its first use, and the call runs again (once).
    if ('apiKeyHash' in caller && !req.legacyRetried && (await hashPlainApiKey(db, key, caller.apiKeyHash))) {
      return extract(db, { ...req, legacyRetried: true }, defer);
    }
    await wrongKey(extractError(1001));
  }
  userId = outcome.userId as number;
  if (!outcome.allowed) await fail(extractError(1005));
  if (!outcome.whiteListed) await fail(extractError(1002));
  let candidates: PackageForExtract[] = [];
  try {
    candidates = choosePackages(outcome.packages, Math.min(p.num, Math.max(1, outcome.drawn)), day, req.now);
  } catch (err) {
    if (isExtractError(err)) await fail(err, p.packageId);
    throw err;
  }
  if (outcome.drawn === 0) await fail(extractError(1007), candidates[0]?.id ?? null);
  const longest = Math.max(...candidates.map((c) => c.durationMinutes));
  if (p.minTtl > longest * 60) await fail(extractError(1006, `min_ttl不能超过套餐IP时长${longest * 60}秒`));
  // Every check passed on the state the batch read, yet no package could give the IPs: a concurrent call took them.
  return await fail(extractError(1004), candidates[0]?.id ?? null);
}
