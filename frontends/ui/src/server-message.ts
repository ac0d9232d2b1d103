// Through the package name, not './api-client.ts': see optional-query.ts.
import { ApiError } from '@ledgerline/ui/api-client.ts';

/** The `{ message }` a service answered with (design §5.2), when the error carries one. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  try {
    const body = JSON.parse(error.body) as { message?: unknown } | null;
    return typeof body?.message === 'string' && body.message ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** What a screen says about a failure: the server's message, else the error's own. */
export function failureReason(error: unknown): string {
  return serverMessage(error) ?? (error instanceof Error ? error.message : String(error));
}
