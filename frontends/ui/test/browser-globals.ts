/**
 * The ui modules run in browsers; under jest (node) these stand in for the two browser
 * APIs they touch: localStorage and fetch.
 */

export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();

  get length(): number {
    return this.items.size;
  }

  clear(): void {
    this.items.clear();
  }

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }

  removeItem(key: string): void {
    this.items.delete(key);
  }

  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

export function installLocalStorage(storage: Storage = new MemoryStorage()): Storage {
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
  return storage;
}

export interface RecordedRequest {
  url: string;
  init: RequestInit;
}

/** Replaces fetch with one answering from `respond`; returns the requests it received. */
export function installFetch(respond: (url: string, init: RequestInit) => Response): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  Object.defineProperty(globalThis, 'fetch', {
    value: async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = String(input);
      requests.push({ url, init });
      return respond(url, init);
    },
    configurable: true,
    writable: true,
  });
  return requests;
}
