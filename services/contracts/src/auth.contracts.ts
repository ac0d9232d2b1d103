import { z } from 'zod';

/** Body of every login form (spec 000 §5: both fields required, with these messages). */
export const loginRequestSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** The signed-in user as login returns it and the shell stores it. */
export const sessionUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullName: z.string(),
  role: z.string(),
  tenant: z.string().nullable(),
  platformAdmin: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export interface LoginResponse {
  token: string;
  user: SessionUser;
}
