import { lazy, type ReactElement } from 'react';
import { registration } from './remote-loader.ts';

/**
 * Stands in for a declared page of a remote that has not loaded yet: on first render it
 * loads the remote, runs its register() and shows the element registered at the same
 * path. The route's Suspense boundary shows 'Loading...' meanwhile; a remote that fails
 * to load, or registers no such page, shows the route's error message.
 */
export function declaredPage(remote: string, path: string): ReactElement {
  const Page = lazy(async () => {
    const route = (await registration(remote)).routes.find((registered) => registered.path === path);
    if (!route) throw new Error(`The '${remote}' remote registers no page at ${path}.`);
    return { default: () => route.element };
  });
  return <Page />;
}
