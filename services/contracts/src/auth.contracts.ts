import type { FirmCountry } from './firm-country.ts';
import { z } from 'zod';

/** Body of every login form (spec 000 §5: both fields required, with these messages). */
export const loginRequestSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The signed-in user as every login returns it and the shell stores it. */
export interface SignedInUser {
  id: number;
  username: string;
  fullName: string;
  role: string;
  roleName: string;
  roleId: number;
  clientIds: number[] | null;
  reportTypeIds: number[] | null;
  /** Firm short name; null for platform administrators. */
  tenant: string | null;
  platformAdmin: boolean;
}

export interface LoginResponse {
  token: string;
  user: SignedInUser;
  /** The firm signed in to (the shell stores it as currentTenant); null for platform administrators. */
  tenant: { id: number; name: string; shortName: string; isActive: boolean; country: FirmCountry | null } | null;
}
