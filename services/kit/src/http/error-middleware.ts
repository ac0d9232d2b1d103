import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ServerResponse } from 'node:http';
import { ZodError } from 'zod';
import { isDomainError, RateLimited, type ErrorKind } from '../errors.ts';
import type { Logger } from '../logger.ts';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  gone: 410,
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
    sendError(err, res, logger, { reqId: res.locals.requestId, url: req.originalUrl });
  };
}

/**
 * Writes the answer for `err` on a plain Node response (the gateway's API path runs
 * without express): the status its kind maps to and a JSON `{ message }` body.
 */
export function sendError(err: unknown, res: ServerResponse, logger: Logger, context: { reqId?: unknown; url?: string }): void {
  const { status, body } = answerFor(err) ?? unexpected(err, logger, context);
  if (err instanceof RateLimited) res.setHeader('Retry-After', String(err.retryAfterSeconds));
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

interface ErrorAnswer { status: number; body: Record<string, unknown> }

function answerFor(err: unknown): ErrorAnswer | null {
  if (isDomainError(err)) {
    const body: Record<string, unknown> = { message: err.message };
    if (err.details !== undefined) body.details = err.details;
    return { status: STATUS_BY_KIND[err.kind], body };
  }
  if (err instanceof ZodError) return { status: 400, body: { message: err.issues[0]?.message ?? 'Invalid request', details: err.issues } };
  const parser = err as ParserError;
  if (parser.type === 'entity.too.large') return { status: 413, body: { message: 'Request body is too large' } };
  if (parser.type === 'entity.parse.failed') return { status: 400, body: { message: 'Malformed JSON body' } };
  if (parser.expose && parser.status && parser.status >= 400 && parser.status < 500) return { status: parser.status, body: { message: parser.message } };
  return null;
}

function unexpected(err: unknown, logger: Logger, context: { reqId?: unknown; url?: string }): ErrorAnswer {
  logger.error({ err, ...context }, 'unhandled error');
  return { status: 500, body: { message: 'Internal server error' } };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json({ message: `Not found: ${req.method} ${req.path}` });
};
