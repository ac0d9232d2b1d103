/**
 * What deleting a client does, as the services carry it out on client.deleted: the files
 * service deletes the documents the portal stores for the client (its own Google Drive is
 * left alone), identity deletes the Client users whose own company it was and takes it out
 * of every staff member's access list.
 */
export const clientDeletionEffects = (name: string): string =>
  `${name}'s documents stored in the portal and the sign-ins of its Client users are deleted (files in its own Google Drive stay there); staff keep their accounts and lose access to ${name}.`;
