import {
  userInputSchema, userPasswordSchema, userUpdateSchema, type User, type UserInput, type UserUpdate,
} from '@ledgerline/contracts/identity.contracts.ts';
import { validateForm, type Validation } from '@ledgerline/ui/form-validation.ts';

export interface UserFormValues {
  username: string;
  password: string;
  fullName: string;
  roleId: number | null;
  clientIds: number[];
  reportTypeIds: number[];
  email: string;
  /** Create only: e-mail an invitation to set a password instead of setting one here (issue 40). */
  invite: boolean;
}

export const EMPTY_USER_FORM: UserFormValues = { username: '', password: '', fullName: '', roleId: null, clientIds: [], reportTypeIds: [], email: '', invite: false };

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
    invite: false,
  };
}

const ADDRESS_REQUIRED = 'An invitation needs an email address';
const isAddress = (v: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);

/** Spec 000 §5: a new user gets a password here, unless the Admin sends an invitation instead. */
const withPasswordSchema = userInputSchema.extend({ password: userPasswordSchema });

/**
 * The rules of spec 000 §5 as the API's own schemas state them; the parsed value is the
 * request body (empty selections already null, a blank password left out). An invitation
 * needs an address: the email field, or a username that is one.
 */
export function checkUserForm(values: UserFormValues, mode: 'create' | 'edit'): Validation<UserInput | UserUpdate> {
  const { invite, ...rest } = values;
  if (mode === 'edit') return validateForm(userUpdateSchema, rest);
  if (!invite) return validateForm(withPasswordSchema, rest);
  const checked = validateForm(userInputSchema, { ...rest, password: '', invite: true });
  if (values.email.trim() || isAddress(values.username.trim())) return checked;
  return { ok: false, errors: { ...(checked.ok ? {} : checked.errors), email: ADDRESS_REQUIRED } };
}
