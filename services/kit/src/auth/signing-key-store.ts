import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { JWK } from 'jose';

/**
 * One signing key of the built-in token issuer. Keys are immutable once saved: rotation
 * adds a newer key instead of editing the old one, so a store never needs an update
 * path and concurrent writers (several identity replicas) cannot clobber each other.
 */
export interface StoredSigningKey {
  /** JWK thumbprint of the public key; tokens name it in their `kid` header. */
  kid: string;
  alg: 'ES256';
  /** When the key was generated (epoch milliseconds); the newest key signs. */
  createdAtMs: number;
  /** Private EC JWK (includes `d`); the public half is derived from it. */
  privateJwk: JWK;
}

/** Where the issuer persists its keys, so a restart keeps them and issued tokens stay valid. */
export interface SigningKeyStore {
  loadAll(): Promise<StoredSigningKey[]>;
  save(key: StoredSigningKey): Promise<void>;
  /** Drops a key whose tokens have all expired, so retired private keys do not linger. */
  remove(kid: string): Promise<void>;
}

/** For tests and throwaway processes: keys die with the process. */
export class MemorySigningKeyStore implements SigningKeyStore {
  readonly #keys = new Map<string, StoredSigningKey>();

  async loadAll(): Promise<StoredSigningKey[]> {
    return [...this.#keys.values()].map((k) => structuredClone(k));
  }

  async save(key: StoredSigningKey): Promise<void> {
    this.#keys.set(key.kid, structuredClone(key));
  }

  async remove(kid: string): Promise<void> {
    this.#keys.delete(kid);
  }
}

interface KeyFile {
  keys: StoredSigningKey[];
}

/**
 * The embedded default: one JSON file (`signing-keys.json`, mode 0600) in the data
 * directory. Writes go to a temporary file that is renamed over the old one, so a crash
 * mid-write never leaves a truncated key file (which would invalidate every session).
 */
export class FileSigningKeyStore implements SigningKeyStore {
  static readonly fileName = 'signing-keys.json';
  readonly path: string;
  readonly #dir: string;
  /** Read-modify-write cycles run one at a time so concurrent saves do not lose keys. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dir: string) {
    this.#dir = dir;
    this.path = join(dir, FileSigningKeyStore.fileName);
  }

  async loadAll(): Promise<StoredSigningKey[]> {
    return (await this.#read()).keys;
  }

  save(key: StoredSigningKey): Promise<void> {
    return this.#update((keys) => [...keys.filter((k) => k.kid !== key.kid), key]);
  }

  remove(kid: string): Promise<void> {
    return this.#update((keys) => keys.filter((k) => k.kid !== kid));
  }

  #update(change: (keys: StoredSigningKey[]) => StoredSigningKey[]): Promise<void> {
    const run = this.#queue.then(async () => {
      const { keys } = await this.#read();
      await this.#write({ keys: change(keys) });
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #read(): Promise<KeyFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { keys: [] };
      throw e;
    }
    // A corrupt file must stop the start, not be silently replaced by fresh keys.
    const parsed = JSON.parse(text) as Partial<KeyFile>;
    if (!Array.isArray(parsed.keys)) throw new Error(`Signing key file ${this.path} has no "keys" array`);
    return { keys: parsed.keys };
  }

  async #write(file: KeyFile): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.path}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify(file, null, 2), { mode: 0o600 });
    await rename(tmp, this.path);
  }
}
