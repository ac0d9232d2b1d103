import { createRequire } from 'node:module';

/** The last entry of a firm archive: what it holds and how to check it. */
export interface FirmManifest {
  format: typeof FIRM_ARCHIVE_FORMAT;
  productVersion: string;
  createdAt: string;
  firm: { name: string; shortName: string; schemaName: string; urlPattern: string; customDomain: string | null; customSubdomain: string | null };
  /** Per service: the migrations its tables were at, rows per table, stored objects. */
  services: Record<string, { migrations: Record<string, string[]>; rows: Record<string, number>; objects: number }>;
  /** Every other entry's size and SHA-256, in archive order. */
  files: Record<string, { size: number; sha256: string }>;
}

export const FIRM_ARCHIVE_FORMAT = 'ledgerline-firm-archive/1';
export const MANIFEST_ENTRY = 'manifest.json';

/** The product version written into archives (the kit's, which every release bumps with the product). */
export const PRODUCT_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** Compares dotted versions numerically: negative when a is older than b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
