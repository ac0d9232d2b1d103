import { z } from 'zod';

const optionalText = z.string().trim().max(253).nullish().transform((v) => (v ? v : null));

/** Tenant (company) form of the administrator portal, spec 000 §5. */
export const companyInputSchema = z.object({
  name: z.string({ error: 'Company name is required' }).trim().min(1, 'Company name is required').max(200),
  shortName: z.string({ error: 'Short name is required' }).min(1, 'Short name is required').max(40)
    .regex(/^[a-z0-9]+$/, 'Only lowercase letters and numbers allowed'),
  schemaName: z.string().max(63).regex(/^[a-z0-9_]+$/, 'Only lowercase letters, numbers, and underscores allowed').optional(),
  urlPattern: z.enum(['path', 'subdomain', 'domain'], { error: 'URL pattern must be path, subdomain or domain' }).default('path'),
  customDomain: optionalText,
  customSubdomain: optionalText,
  isActive: z.boolean().default(true),
});
export type CompanyInput = z.infer<typeof companyInputSchema>;

export interface Company {
  id: number;
  name: string;
  shortName: string;
  schemaName: string;
  customDomain: string | null;
  customSubdomain: string | null;
  urlPattern: 'path' | 'subdomain' | 'domain';
  isActive: boolean;
  createdAt: string;
}

const idList = z.array(z.number({ error: 'Ids must be numbers' }).int().positive()).nullish()
  .transform((v) => (v && v.length ? [...new Set(v)] : null));

/** User form, spec 000 §5; password optional on update (blank keeps the current one). */
export const userInputSchema = z.object({
  username: z.string({ error: 'Username must be at least 3 characters' }).trim().min(3, 'Username must be at least 3 characters').max(100),
  password: z.string({ error: 'Password must be at least 6 characters' }).min(6, 'Password must be at least 6 characters').max(200),
  fullName: z.string({ error: 'Full name is required' }).trim().min(1, 'Full name is required').max(200),
  roleId: z.coerce.number({ error: 'Please select a role' }).int().min(1, 'Please select a role'),
  clientIds: idList,
  reportTypeIds: idList,
});
export const userUpdateSchema = userInputSchema.extend({
  password: z.union([z.literal(''), z.string().min(6, 'Password must be at least 6 characters').max(200)]).nullish()
    .transform((v) => (v ? v : undefined)),
});
export type UserInput = z.infer<typeof userInputSchema>;
export type UserUpdate = z.infer<typeof userUpdateSchema>;

export interface User {
  id: number;
  username: string;
  fullName: string;
  roleId: number;
  roleName: string;
  /** Same as roleName: the shell reads `role`. */
  role: string;
  clientIds: number[] | null;
  reportTypeIds: number[] | null;
  createdAt: string;
}

export const roleInputSchema = z.object({
  name: z.string({ error: 'Role name is required' }).trim().min(1, 'Role name is required').max(100),
});

export interface Role {
  id: number;
  name: string;
}

export const idParamSchema = z.coerce.number().int().positive();
