import path from 'node:path';
import { LocalObjectStore } from './local-object-store.ts';
import type { ObjectStore } from './object-store.ts';
import { S3ObjectStore } from './s3-object-store.ts';
import type { S3ObjectStoreConfig } from './s3-object-store.ts';

export interface ObjectStoreConfig {
  /** S3-compatible server; when absent objects live in `${dataDir}/objects`. */
  s3?: S3ObjectStoreConfig;
  /** Embedded-default data folder. */
  dataDir: string;
}

/** Picks the adapter from config and makes it ready: the bucket exists, or the directory tree does. */
export async function createObjectStore(config: ObjectStoreConfig): Promise<ObjectStore> {
  if (config.s3) {
    const store = new S3ObjectStore(config.s3);
    await store.ensureBucket();
    return store;
  }
  const store = new LocalObjectStore(path.join(config.dataDir, 'objects'));
  await store.prepare();
  return store;
}
