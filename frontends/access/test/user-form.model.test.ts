import { describe, expect, it } from '@jest/globals';
import { checkUserForm, EMPTY_USER_FORM, userFormValues } from '../src/user-form.model.ts';

const carl = { id: 7, username: 'carl', fullName: 'Carl Price', roleId: 3, roleName: 'CPA', role: 'CPA', clientIds: [2], reportTypeIds: null, email: null, createdAt: '2026-01-02T00:00:00Z', status: 'active' as const, invitedAt: null };

describe('user form', () => {
  it("reports the spec's messages for an empty form", () => {
    expect(checkUserForm(EMPTY_USER_FORM, 'create')).toEqual({
      ok: false,
      errors: {
        username: 'Username must be at least 3 characters',
        password: 'Password must be at least 6 characters',
        fullName: 'Full name is required',
        roleId: 'Please select a role',
      },
    });
  });

  it('sends empty selections as null', () => {
    const checked = checkUserForm({ ...EMPTY_USER_FORM, username: 'cleo', password: 'secret-1', fullName: 'Cleo', roleId: 4 }, 'create');
    expect(checked).toEqual({ ok: true, data: { username: 'cleo', password: 'secret-1', fullName: 'Cleo', roleId: 4, clientIds: null, reportTypeIds: null, email: null, invite: false } });
  });

  it('an invitation instead of a password needs an address, and sends no password', () => {
    const invite = { ...EMPTY_USER_FORM, username: 'cleo', fullName: 'Cleo', roleId: 4, invite: true };
    expect(checkUserForm(invite, 'create')).toEqual({ ok: false, errors: { email: 'An invitation needs an email address' } });
    expect(checkUserForm({ ...invite, email: 'Cleo@Example.test' }, 'create')).toEqual({
      ok: true, data: { username: 'cleo', fullName: 'Cleo', roleId: 4, clientIds: null, reportTypeIds: null, email: 'cleo@example.test', invite: true },
    });
  });

  it('opens an existing user with a blank password, which the update then leaves out', () => {
    const values = userFormValues(carl);
    expect(values).toEqual({ username: 'carl', password: '', fullName: 'Carl Price', roleId: 3, clientIds: [2], reportTypeIds: [], email: '', invite: false });
    const checked = checkUserForm(values, 'edit');
    expect(checked.ok && checked.data).toEqual({ username: 'carl', fullName: 'Carl Price', roleId: 3, clientIds: [2], reportTypeIds: null, email: null });
    expect(checkUserForm({ ...values, password: 'abc' }, 'edit')).toEqual({ ok: false, errors: { password: 'Password must be at least 6 characters' } });
  });
});
