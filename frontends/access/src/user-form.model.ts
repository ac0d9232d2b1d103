import { userInputSchema, userUpdateSchema, type User, type UserInput, type UserUpdate } from '@ledgerline/contracts/identity.contracts.ts';
import { validateForm, type Validation } from '@ledgerline/ui/form-validation.ts';

export interface UserFormValues {
  username: string;
  password: string;
  fullName: string;
  roleId: number | null;
  clientIds: number[];
  reportTypeIds: number[];
  email: string;
}

export const EMPTY_USER_FORM: UserFormValues = { username: '', password: '', fullName: '', roleId: null, clientIds: [], reportTypeIds: [], email: '' };

/** An existing user in the form; the password stays blank, which keeps it (spec 000 §7). */
export function userFormValues(user: User): UserFormValues {
  return {
    username: user.username,
    password: '',
    fullName: user.fullName,
    roleId: user.roleId,
    clientIds: user.clientIds ?? [],
    reportTypeIds: user.reportTypeIds ?? [],
    email: user.email ?? '',
  };
}

/**
 * The rules of spec 000 §5 as the API's own schemas state them; the parsed value is the
 * request body (empty selections already null, a blank password on update left out).
 */
export function checkUserForm(values: UserFormValues, mode: 'create' | 'edit'): Validation<UserInput | UserUpdate> {
  return mode === 'create' ? validateForm(userInputSchema, values) : validateForm(userUpdateSchema, values);
}
