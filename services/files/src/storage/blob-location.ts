/** Where a file's bytes are: the portal's object store, or the client's Google Drive folder. */
export type BlobLocation =
  | { kind: 'object'; key: string }
  | { kind: 'google_drive'; fileId: string; clientId: number };
