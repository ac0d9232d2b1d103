import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { realServerUrl } from '../testing/real-servers.ts';
import { createObjectStore } from './create-object-store.ts';
import type { ObjectStore } from './object-store.ts';

export interface OpenedObjectStore {
  store: ObjectStore;
  /** Removes the embedded store's folder; S3 tests delete their own keys (the bucket is shared). */
  close(): Promise<void>;
}

export interface ObjectStoreTarget {
  kind: ObjectStore['kind'];
  open(options?: { s3PartSizeBytes?: number }): Promise<OpenedObjectStore>;
}

/**
 * The stores a contract suite runs against (`describe.each`): the local one always, S3
 * when `S3_ENDPOINT` is set (required in CI), with S3_ACCESS_KEY, S3_SECRET_KEY and
 * S3_BUCKET beside it. Both are built by `createObjectStore`, as the runtime builds them.
 */
export function objectStoreTargets(): ObjectStoreTarget[] {
  const targets: ObjectStoreTarget[] = [{
    kind: 'local',
    open: async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'object-store-'));
      return { store: await createObjectStore({ dataDir }), close: () => rm(dataDir, { recursive: true, force: true }) };
    },
  }];
  const endpoint = realServerUrl('S3_ENDPOINT');
  if (endpoint) {
    targets.push({
      kind: 's3',
      open: async (options = {}) => {
        const s3 = { endpoint, accessKey: requireEnv('S3_ACCESS_KEY'), secretKey: requireEnv('S3_SECRET_KEY'), bucket: requireEnv('S3_BUCKET'), partSizeBytes: options.s3PartSizeBytes };
        return { store: await createObjectStore({ s3, dataDir: os.tmpdir() }), close: async () => undefined };
      },
    });
  }
  return targets;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set when S3_ENDPOINT is`);
  return value;
}
