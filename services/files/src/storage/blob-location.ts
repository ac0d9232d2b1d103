/** Where a file's bytes are: the portal's object store, or the client's Google Drive folder. */
export type BlobLocation =
  | { kind: 'object'; key: string }
  | { kind: 'google_drive'; fileId: string; clientId: number };

/**
 * On whose behalf Google Drive is reached: a signed-in user (their bearer token is
 * forwarded, so the directory checks they may read the client), or the files service's
 * own background work (content extraction, cleanup after a client's deletion).
 */
export type DriveCaller =
  | { kind: 'user'; tenant: string; bearer: string }
  | { kind: 'service'; tenant: string };
