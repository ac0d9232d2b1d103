import { describe, expect, it } from '@jest/globals';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { DashboardFile, DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { ActivityDetailsBody } from '../src/activity-details-dialog.tsx';
import { OverviewTab } from '../src/overview-tab.tsx';
import { StatCard } from '../src/stat-card.tsx';

const render = (element: ReactElement) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{element}</MemoryRouter>
    </QueryClientProvider>,
  );

const file = (fileId: number, size: number): DashboardFile => ({
  fileId,
  fileName: `Report ${fileId}.pdf`,
  clientId: 7,
  clientName: 'Mehta Exports',
  fileType: 'report',
  size,
  uploaderName: 'Priya Mehta',
  uploadedAt: new Date(2025, 2, 7, 10, 0).toISOString(),
});

const overview = (recentFiles: DashboardFile[]): DashboardOverview => ({
  totalDocuments: recentFiles.length,
  totalActivities: 0,
  totalClients: 1,
  activeUsers: 1,
  recentFiles,
  topClients: [],
  topFiles: [],
  topUsers: [],
  activityByDay: [{ date: '2025-03-07', count: 0 }],
  actionCounts: [],
  documentsByType: [],
});

describe('dashboard panels', () => {
  it('lists the recent files (the server sends 10) with sizes in MB (2 decimals) and view and download buttons', () => {
    const files = Array.from({ length: 10 }, (_, index) => file(index + 1, 262_144 * (index + 1)));
    const html = render(
      <OverviewTab overview={overview(files)} activity={{ logs: [], loading: false }} viewer={{ role: 'Admin' }} reportsHref="/acme/cpa-dashboard" />,
    );
    const recentFiles = html.split('aria-label="Recent Files"')[1]!.split('</section>')[0]!;
    expect(recentFiles.match(/aria-label="View Report \d+\.pdf"/g)).toHaveLength(10);
    expect(recentFiles).toContain('Report 10.pdf');
    expect(recentFiles).toContain('0.25 MB');
    expect(recentFiles).toContain('2.50 MB');
    expect(recentFiles).toContain('aria-label="Download Report 1.pdf"');
    expect(recentFiles).toContain('03/07/2025');
    // The note points to the Reports page.
    expect(recentFiles).toContain('Showing the 10 most recent files.');
    expect(recentFiles).toContain('href="/acme/cpa-dashboard"');
    // A 30-day chart of nothing but zeros is replaced by a note.
    expect(html).toContain('No activity in the last 30 days.');
    expect(html).toContain('No activities found.');
  });

  it('shows a placeholder, not 0, while a figure loads', () => {
    const loading = render(<StatCard title="Total Documents" icon="pi pi-file" value={undefined} />);
    expect(loading).toContain('p-skeleton');
    expect(loading).not.toContain('stat-card__value');
    const loaded = render(<StatCard title="Total Documents" icon="pi pi-file" value={1234} />);
    expect(loaded).toContain('aria-label="Total Documents"');
    expect(loaded).toContain('<p class="stat-card__value">1,234</p>');
  });

  it("shows a details dialog's empty text when nothing was recorded", () => {
    const html = render(
      <ActivityDetailsBody
        details={{ totalActions: 0, actionCounts: [], recent: [] }}
        viewer={{ role: 'Admin' }}
        emptyText="No activity found for this user"
        figures={[]}
        omit="user"
      />,
    );
    expect(html).toContain('No activity found for this user');
    expect(html).toContain('<dt>Total Actions</dt><dd>0</dd>');
    expect(html).not.toContain('<table');
  });

  it("shows a client's documents, its actions breakdown and recent entries", () => {
    const html = render(
      <ActivityDetailsBody
        details={{
          totalActions: 3,
          actionCounts: [{ action: 'upload', count: 2 }, { action: 'view', count: 1 }, { action: 'chat', count: 0 }],
          recent: [
            { id: 5, action: 'view', fileId: 1, fileName: 'Return.pdf', userId: 2, userName: 'Priya Mehta', clientId: 7, clientName: 'Mehta Exports', details: null, timestamp: '2025-03-07T10:00:00.000Z', fileDeleted: false },
          ],
        }}
        viewer={{ role: 'Admin' }}
        emptyText="No engagement activity found for this client"
        figures={[{ label: 'Documents', value: 2 }]}
        omit="client"
      />,
    );
    expect(html).toContain('<dt>Documents</dt><dd>2</dd>');
    expect(html).toContain('<dt>Total Actions</dt><dd>3</dd>');
    expect(html).toContain('<span>Uploads</span><strong>2</strong>');
    expect(html).toContain('<span>Views</span><strong>1</strong>');
    expect(html).not.toContain('AI Chats');
    expect(html).toContain('Viewed Return.pdf');
    expect(html).not.toContain('No engagement activity found for this client');
  });
});
