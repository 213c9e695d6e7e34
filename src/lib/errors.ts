// The one error type of the portal: a catalogue code (src/lib/messages.ts) with its Chinese text and the HTTP status
// to answer. Thrown by domain code, actions, providers and the edge's own checks; src/edge/error-response.ts turns it
// into each surface's answer (the /api envelope, /extract codes, payment callbacks, the node API, HTML pages). The
// text may name what was wrong (`detail`); internals (`reason`, `upstream`) go to the logs only, never to the caller.
import { type MessageCode, messages } from './messages';

/** What a remote service (WeChat Pay) answered when it refused a call: for logs and decisions, never shown. */
export interface UpstreamFailure {
  /** The remote HTTP status. */
  status: number;
  /** The remote error code (ORDER_NOT_EXIST, PARAM_ERROR, ...) or MALFORMED_RESPONSE. */
  code: string;
  /** The remote error text. */
  message: string;
}

export interface AppErrorOptions {
  /** HTTP status of the answer; 200 for business errors shown as {E} (the default). */
  status?: number;
  /** Appended to the catalogue text after "：" (e.g. which parameter was wrong); shown to the caller. */
  detail?: string;
  /** A stable machine reason for logs and metrics (e.g. a signature check that failed); never shown. */
  reason?: string;
  /** The remote service's refusal, when this error stands for one. */
  upstream?: UpstreamFailure;
  /** What went wrong underneath, for logs only (a description, or the original error). */
  cause?: unknown;
}

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: MessageCode;
  readonly status: number;
  readonly reason: string | undefined;
  readonly upstream: UpstreamFailure | undefined;

  /** code selects the catalogue text; status is the HTTP status (200 for business errors shown as E). */
  constructor(code: MessageCode, options: AppErrorOptions = {}) {
    super(
      options.detail ? `${messages[code]}：${options.detail}` : messages[code],
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.status = options.status ?? 200;
    this.reason = options.reason;
    this.upstream = options.upstream;
  }
}

/** True when the value is an AppError. */
export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/**
 * The error as an AppError: itself (logged when it carries a reason or a remote refusal), or "internal" (500) after
 * logging what it really was with its stack. `fields` say where (request id, surface, path, action).
 */
export function asAppError(err: unknown, fields: Record<string, unknown>): AppError {
  if (isAppError(err)) {
    if (err.reason || err.upstream) {
      console.warn(
        JSON.stringify({
          level: 'warn',
          ...fields,
          code: err.code,
          reason: err.reason,
          upstream: err.upstream,
          ...(err.cause ? { cause: String(err.cause) } : {}),
        }),
      );
    }
    return err;
  }
  console.error(JSON.stringify({ level: 'error', ...fields, error: String(err), stack: (err as Error)?.stack }));
  return new AppError('internal', { status: 500 });
}
