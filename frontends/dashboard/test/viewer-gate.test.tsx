import { beforeEach, describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AuthProvider } from '@ledgerline/ui/auth-context.tsx';
import { installLocalStorage } from '../../ui/test/browser-globals.ts';
import { ActivityPage } from '../src/activity.page.tsx';
import { DashboardPage } from '../src/dashboard.page.tsx';

describe('dashboard and activity pages before sign-in state is known', () => {
  beforeEach(() => {
    installLocalStorage();
  });

  it.each([
    ['/acme/dashboard', <DashboardPage />],
    ['/activity', <ActivityPage />],
  ])("show 'Loading...' on %s until the user and tenant are known", (path, page) => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <AuthProvider>
          <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
        </AuthProvider>
      </QueryClientProvider>,
    );
    expect(html).toBe('<div class="dashboard-loading" role="status">Loading...</div>');
  });
});
