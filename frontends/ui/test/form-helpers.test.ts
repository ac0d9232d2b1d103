import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { validateForm } from '@ledgerline/ui/form-validation.ts';
import { failureReason, serverMessage } from '@ledgerline/ui/server-message.ts';
import { isTenantScopedPath } from '@ledgerline/ui/tenant-path.ts';

describe('validateForm', () => {
  const schema = z.object({ name: z.string().min(1, 'Role name is required'), size: z.number().min(1, 'Too small').max(9, 'Too big') });

  it('gives the parsed value, or the first message per field', () => {
    expect(validateForm(schema, { name: 'CPA', size: 2 })).toEqual({ ok: true, data: { name: 'CPA', size: 2 } });
    expect(validateForm(schema, { name: '', size: 0 })).toEqual({ ok: false, errors: { name: 'Role name is required', size: 'Too small' } });
  });
});

describe('server messages', () => {
  it("reads the service's { message }, else falls back to the error's own text", () => {
    const withMessage = new ApiError(409, JSON.stringify({ message: 'Role name already exists' }), 'Conflict');
    const plain = new ApiError(502, '', 'Bad Gateway');
    expect(serverMessage(withMessage)).toBe('Role name already exists');
    expect(serverMessage(plain)).toBeUndefined();
    expect(serverMessage(new Error('offline'))).toBeUndefined();
    expect(failureReason(withMessage)).toBe('Role name already exists');
    expect(failureReason(plain)).toBe('502: Bad Gateway');
    expect(failureReason(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });
});

describe('isTenantScopedPath', () => {
  it('knows the spec sections under /{tenant}, never under /admin', () => {
    for (const path of ['/acme/dashboard', '/acme/users', '/acme/client-reports', '/acme/cpa-dashboard/3', '/acme/messages']) expect([path, isTenantScopedPath(path)]).toEqual([path, true]);
    for (const path of ['/', '/users', '/admin/dashboard', '/admin/tenants', '/acme/roles', '/acme/login']) expect([path, isTenantScopedPath(path)]).toEqual([path, false]);
  });
});
