import { describe, expect, it } from '@jest/globals';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import { ownClientId, visibleActivities } from '../src/activity-visibility.ts';

const log = (id: number, clientId: number | null): ActivityLog => ({
  id,
  action: 'view',
  fileId: id,
  fileName: `file-${id}.pdf`,
  userId: 1,
  userName: 'Priya Mehta',
  clientId,
  clientName: clientId === null ? null : `Client ${clientId}`,
  details: null,
  timestamp: '2025-03-07T09:00:00.000Z',
  fileDeleted: false,
});

const logs = [log(1, 7), log(2, 8), log(3, null), log(4, 7)];

describe('activity feed visibility (spec 001 §2)', () => {
  it('shows an admin everything, the role compared in lower case', () => {
    expect(visibleActivities(logs, { role: 'Admin' }).map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
    expect(visibleActivities(logs, { role: 'ADMIN' }).map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
  });

  it('shows a Client user only the entries of their own client (the first id of their list)', () => {
    expect(visibleActivities(logs, { role: 'Client', clientIds: [7, 8] }).map((entry) => entry.id)).toEqual([1, 4]);
    expect(visibleActivities(logs, { role: 'client', clientIds: [8] }).map((entry) => entry.id)).toEqual([2]);
  });

  it('shows a Client user without a client nothing', () => {
    expect(visibleActivities(logs, { role: 'Client', clientIds: [] })).toEqual([]);
    expect(visibleActivities(logs, { role: 'Client', clientIds: null })).toEqual([]);
    expect(visibleActivities(logs, { role: 'Client' })).toEqual([]);
  });

  it('keeps what the server returned for other staff, which it already scoped to their clients', () => {
    expect(visibleActivities(logs, { role: 'CPA', clientIds: [7] }).map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
    expect(visibleActivities(logs, { role: 'DTA' }).map((entry) => entry.id)).toEqual([1, 2, 3, 4]);
  });

  it('reads the own client defensively from the stored user', () => {
    expect(ownClientId({ role: 'Client', clientIds: [5, 6] })).toBe(5);
    expect(ownClientId({ role: 'Client', clientIds: ['5'] })).toBeNull();
    expect(ownClientId({ role: 'Client', clientIds: 'nonsense' })).toBeNull();
  });
});
