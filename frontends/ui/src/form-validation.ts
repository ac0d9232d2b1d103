/**
 * Form checks run the same zod schemas the services parse requests with (services/contracts),
 * so a form and its API agree on every rule and message. Typed structurally so this package
 * needs no zod itself.
 */
export interface FormSchema<T> {
  safeParse(value: unknown):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

export type FieldErrors = Readonly<Partial<Record<string, string>>>;

export type Validation<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/** The parsed value, or the first message for each field. */
export function validateForm<T>(schema: FormSchema<T>, values: unknown): Validation<T> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Partial<Record<string, string>> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
