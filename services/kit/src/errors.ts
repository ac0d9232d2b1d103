/**
 * The one error family of the portal. Domain code throws these; the HTTP error
 * middleware (http/error-middleware.ts) maps each kind to a status and a `{ message }`
 * body the UI shows. Nothing outside kit/http knows about HTTP status codes.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media'
  | 'rate_limited'
  | 'unavailable';

export class DomainError extends Error {
  readonly kind: ErrorKind;
  /** Optional machine-readable details (e.g. field errors), returned beside the message. */
  readonly details: unknown;
  constructor(kind: ErrorKind, message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.kind = kind;
    this.details = details;
  }
}

export class Invalid extends DomainError {
  constructor(message: string, details?: unknown) { super('invalid', message, details); }
}
export class Unauthenticated extends DomainError {
  constructor(message = 'Authentication required. Please log in again.') { super('unauthenticated', message); }
}
export class Forbidden extends DomainError {
  constructor(message = 'You do not have access to this resource.') { super('forbidden', message); }
}
export class NotFound extends DomainError {
  constructor(message = 'Not found') { super('not_found', message); }
}
/** What existed and ended for good (an expired or revoked link): 410. */
export class Gone extends DomainError {
  constructor(message: string) { super('gone', message); }
}
export class Conflict extends DomainError {
  constructor(message: string, details?: unknown) { super('conflict', message, details); }
}
export class TooLarge extends DomainError {
  constructor(message: string) { super('too_large', message); }
}
/** A body whose content is not what it claims to be (e.g. a file's bytes versus its extension). */
export class UnsupportedMedia extends DomainError {
  constructor(message: string) { super('unsupported_media', message); }
}
export class RateLimited extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
export class Unavailable extends DomainError {
  constructor(message: string) { super('unavailable', message); }
}

export const isDomainError = (e: unknown): e is DomainError => e instanceof DomainError;
