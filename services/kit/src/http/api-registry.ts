import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { DB_INT_MAX, NO_CONTROL_CHARACTERS_PATTERN } from '@ledgerline/contracts/scalars.ts';
import { parseInput } from './validate.ts';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType> {
  method: Method;
  /** Express path, e.g. `/api/users/:id`. */
  path: string;
  summary: string;
  tags?: string[];
  body?: B;
  query?: Q;
  /** Status for a returned value (default 200). */
  status?: number;
  /** Documented as needing no bearer token. */
  public?: boolean;
  /** Middleware run before validation, e.g. `authenticate(tokens, tenants.checkCaller)`. */
  before?: RequestHandler[];
  /**
   * JSON Schemas of path parameters the handler reads in its own way; by default an `id`
   * or `…Id` is documented as kit's parsePathId reads it (a positive database integer),
   * anything else as text.
   */
  pathParams?: Record<string, Record<string, unknown>>;
}

export interface RouteContext<B, Q> {
  req: Request;
  res: Response;
  body: B;
  query: Q;
  params: Record<string, string>;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

interface Documented {
  method: Method; path: string; summary: string; tags: string[]; body?: z.ZodType; query?: z.ZodType; status: number; public: boolean;
  pathParams: Record<string, Record<string, unknown>>;
}

/** An id in a path, as parsePathId reads it. */
const PATH_ID_SCHEMA = { type: 'integer', minimum: 1, maximum: DB_INT_MAX };

/**
 * The JSON Schema of a request part, saying what the service enforces beyond the zod
 * schema: every text refuses control characters (kit's rejectControlCharacters), so a
 * generated client or a fuzzer produces text the service takes.
 */
function documented(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(visit); return; }
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.type === 'string' && n.pattern === undefined && n.enum === undefined && n.const === undefined && n.format === undefined) {
      n.pattern = NO_CONTROL_CHARACTERS_PATTERN;
    }
    Object.values(n).forEach(visit);
  };
  visit(json);
  return json;
}

/**
 * Routes are declared once: the same zod schema validates the request and feeds the
 * OpenAPI document each service serves at /openapi.json (the gateway aggregates them).
 */
export class ApiRegistry {
  readonly #routes: Documented[] = [];
  readonly service: string;

  constructor(service: string) {
    this.service = service;
  }

  route<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
    router: Router,
    spec: RouteSpec<NonNullable<B> & z.ZodType, NonNullable<Q> & z.ZodType> & { body?: B; query?: Q },
    handler: (ctx: RouteContext<Out<B>, Out<Q>>) => Promise<unknown> | unknown,
  ): void {
    this.#routes.push({
      method: spec.method, path: spec.path, summary: spec.summary, tags: spec.tags ?? [this.service],
      body: spec.body, query: spec.query, status: spec.status ?? 200, public: spec.public ?? false, pathParams: spec.pathParams ?? {},
    });
    router[spec.method](spec.path, ...(spec.before ?? []), async (req: Request, res: Response) => {
      const ctx = {
        req, res,
        params: req.params as Record<string, string>,
        body: (spec.body ? parseInput(spec.body, req.body ?? {}) : undefined) as Out<B>,
        query: (spec.query ? parseInput(spec.query, req.query) : undefined) as Out<Q>,
      };
      const result = await handler(ctx);
      if (res.headersSent) return;
      if (result === undefined) res.status(spec.status === 200 ? 204 : (spec.status ?? 204)).end();
      else res.status(spec.status ?? 200).json(result);
    });
  }

  /** OpenAPI 3.1 paths of this service. */
  document(): { openapi: string; info: { title: string; version: string }; paths: Record<string, unknown> } {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.#routes) {
      const openPath = r.path.replace(/:(\w+)/g, '{$1}');
      const params = [...r.path.matchAll(/:(\w+)/g)].map(([, name = '']) => ({
        name, in: 'path', required: true,
        schema: r.pathParams[name] ?? (/^id$|Id$/.test(name) ? PATH_ID_SCHEMA : { type: 'string', pattern: NO_CONTROL_CHARACTERS_PATTERN }),
      }));
      if (r.query) {
        const schema = documented(r.query) as { properties?: Record<string, unknown>; required?: string[] };
        for (const [name, s] of Object.entries(schema.properties ?? {})) {
          params.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: s as { type: string } });
        }
      }
      (paths[openPath] ??= {})[r.method] = {
        summary: r.summary,
        tags: r.tags,
        ...(r.public ? { security: [] } : {}),
        parameters: params,
        ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: documented(r.body) } } } } : {}),
        responses: { [String(r.status)]: { description: 'OK' }, default: { description: 'Error', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } } },
      };
    }
    return { openapi: '3.1.0', info: { title: this.service, version: '1' }, paths };
  }
}
