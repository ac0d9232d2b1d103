import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { isDomainError, RateLimited, type ErrorKind } from '../errors.ts';
import type { Logger } from '../logger.ts';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** Errors thrown by express's own body parsers carry a `type` and a status. */
interface ParserError { type?: string; status?: number; expose?: boolean; message: string }

/** The one place where errors become HTTP: `{ message }` bodies the UI shows as they are. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    if (isDomainError(err)) {
      if (err instanceof RateLimited) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      const body: Record<string, unknown> = { message: err.message };
      if (err.details !== undefined) body.details = err.details;
      res.status(STATUS_BY_KIND[err.kind]).json(body);
      return;
    }
    if (err instanceof ZodError) {
      res.status(400).json({ message: err.issues[0]?.message ?? 'Invalid request', details: err.issues });
      return;
    }
    const parser = err as ParserError;
    if (parser.type === 'entity.too.large') {
      res.status(413).json({ message: 'Request body is too large' });
      return;
    }
    if (parser.type === 'entity.parse.failed') {
      res.status(400).json({ message: 'Malformed JSON body' });
      return;
    }
    if (parser.expose && parser.status && parser.status >= 400 && parser.status < 500) {
      res.status(parser.status).json({ message: parser.message });
      return;
    }
    logger.error({ err, reqId: res.locals.requestId, url: req.originalUrl }, 'unhandled error');
    res.status(500).json({ message: 'Internal server error' });
  };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ message: `Not found: ${req.method} ${req.path}` });
};
