import { lazy, type ComponentType, type ReactElement } from 'react';

/**
 * A remote's page fetched (with the shared component styles and the remote's own) only when
 * it is first shown: the shell runs every register at boot, and its Suspense boundary
 * around each route covers the wait.
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
  styles: () => Promise<unknown>,
): ReactElement {
  const Page = lazy<ComponentType>(async () => {
    const [module] = await Promise.all([load(), import('./components.css'), styles()]);
    return { default: module[name] };
  });
  return <Page />;
}
