// The one error type of the portal. Thrown by domain code and actions; the dispatcher turns it into {E} (or an
// HTTP status for 401/403 and protocol errors). Never carries internals to the caller.
import { type MessageCode, messages } from './messages';

export class AppError extends Error {
  readonly code: MessageCode;
  readonly status: number;

  /** code selects the catalogue text; status is the HTTP status (200 for business errors shown as E). */
  constructor(code: MessageCode, options: { status?: number; detail?: string } = {}) {
    super(options.detail ? `${messages[code]}：${options.detail}` : messages[code]);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? 200;
  }
}

/** True when the value is an AppError. */
export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
