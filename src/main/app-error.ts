import type { ErrorCode } from '../shared/contract';

/** An expected failure with a code the UI can act on; hosts turn it into an error envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
