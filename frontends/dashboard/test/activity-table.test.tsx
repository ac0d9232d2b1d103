import { describe, expect, it } from '@jest/globals';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import { ActivityTable, NO_ACTIVITIES, SKELETON_ROWS } from '../src/activity-table.tsx';

const render = (element: ReactElement) =>
  renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{element}</QueryClientProvider>);

const bodyRows = (html: string) => html.split('<tbody')[1]!.split('</tbody>')[0]!.split('<tr').slice(1);
const headers = (html: string) => [...html.split('<thead')[1]!.split('</thead>')[0]!.matchAll(/<th[^>]*>(.*?)<\/th>/g)].map((match) => match[1]!.replace(/<[^>]+>/g, ''));

const entry = (overrides: Partial<ActivityLog>): ActivityLog => ({
  id: 1,
  action: 'upload',
  fileId: 11,
  fileName: 'Q1 Return.pdf',
  userId: 2,
  userName: 'Priya Mehta',
  clientId: 7,
  clientName: 'Mehta Exports',
  details: null,
  timestamp: new Date(2025, 2, 7, 14, 5).toISOString(),
  fileDeleted: false,
  ...overrides,
});

const admin = { role: 'Admin' };

describe('the activity feed table', () => {
  it(`shows ${SKELETON_ROWS} skeleton rows while loading`, () => {
    const html = render(<ActivityTable logs={undefined} loading viewer={admin} />);
    const rows = bodyRows(html);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toContain('p-skeleton');
    expect(html).not.toContain(NO_ACTIVITIES);
  });

  it("says 'No activities found.' when there are none", () => {
    const html = render(<ActivityTable logs={[]} loading={false} viewer={admin} />);
    expect(NO_ACTIVITIES).toBe('No activities found.');
    expect(html).toContain('No activities found.');
    expect(html).not.toContain('p-skeleton');
  });

  it('has the columns of spec 001 §2, with Details on the Activity Log page', () => {
    const dashboard = render(<ActivityTable logs={[]} loading={false} viewer={admin} />);
    expect(headers(dashboard)).toEqual(['', 'Activity', 'User', 'Client', 'Date &amp; Time', 'Action']);
    const page = render(<ActivityTable logs={[]} loading={false} viewer={admin} variant="page" />);
    expect(headers(page)).toEqual(['', 'Activity', 'User', 'Client', 'Date &amp; Time', 'Details', 'Action']);
    const inUserDetails = render(<ActivityTable logs={[]} loading={false} viewer={admin} omit={['user']} />);
    expect(headers(inUserDetails)).toEqual(['', 'Activity', 'Client', 'Date &amp; Time', 'Action']);
  });

  it('shows each entry with its icon, text, user, client and time, and view and download when it names a file', () => {
    const logs = [
      entry({ id: 1, action: 'view', details: 'Viewed file: Q1 Return.pdf' }),
      entry({ id: 2, action: 'delete', fileName: 'Old.pdf' }),
      entry({ id: 3, action: 'update', fileId: null, fileName: null, clientId: null, clientName: null, details: 'Report type renamed' }),
    ];
    const html = render(<ActivityTable logs={logs} loading={false} viewer={admin} variant="page" />);
    const [viewed, deleted, updated] = bodyRows(html);
    expect(viewed).toContain('pi pi-eye');
    expect(viewed).toContain('Viewed Q1 Return.pdf');
    expect(viewed).toContain('Priya Mehta');
    expect(viewed).toContain('Mehta Exports');
    expect(viewed).toContain('03/07/2025 2:05 PM');
    expect(viewed).toContain('Viewed file: Q1 Return.pdf');
    expect(viewed).toContain('aria-label="View Q1 Return.pdf"');
    expect(viewed).toContain('aria-label="Download Q1 Return.pdf"');
    // A deleted file cannot be opened any more.
    expect(deleted).toContain('pi pi-trash');
    expect(deleted).not.toContain('aria-label="View');
    // An entry about no file reads as the sentence its service wrote.
    expect(updated).toContain('<span class="activity-table__text">Report type renamed</span>');
    expect(updated).not.toContain('aria-label="Download');
  });

  it("applies the visibility rule: a Client user sees only their own client's entries", () => {
    const logs = [entry({ id: 1, clientId: 7, fileName: 'Mine.pdf' }), entry({ id: 2, clientId: 8, clientName: 'Other Co', fileName: 'Theirs.pdf' })];
    const html = render(<ActivityTable logs={logs} loading={false} viewer={{ role: 'Client', clientIds: [7] }} />);
    expect(html).toContain('Mine.pdf');
    expect(html).not.toContain('Theirs.pdf');
    const none = render(<ActivityTable logs={logs} loading={false} viewer={{ role: 'Client', clientIds: [] }} />);
    expect(none).toContain('No activities found.');
  });
});
