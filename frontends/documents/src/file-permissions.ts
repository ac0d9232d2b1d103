import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import type { StoredUser } from '@ledgerline/ui/auth-storage.ts';

/** Spec 001 §6: the files table's delete button shows for role Admin or CPA, roleId 1, or username admin. */
export function canDeleteFiles(user: Pick<StoredUser, 'role' | 'username'> & { roleId?: unknown }): boolean {
  return user.role === 'Admin' || user.role === 'CPA' || user.roleId === 1 || user.username === 'admin';
}

/** Spec 001 §6: a firm document is deleted only by an Admin or by whoever uploaded it. */
export function canDeleteFirmDocument(user: Pick<StoredUser, 'id' | 'role'>, file: Pick<PortalFile, 'uploadedById'>): boolean {
  return user.role === 'Admin' || file.uploadedById === user.id;
}
