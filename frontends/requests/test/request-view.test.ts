import { describe, expect, it } from '@jest/globals';
import {
  checklistProblem, clientMayAnswer, isOverdue, isReturned, itemStatusLabel, linkState, progressPercent, progressText, receivedProgress, staffDecisions,
} from '../src/request-view.ts';

describe('request view rules', () => {
  it('counts progress in whole percent; a request without required items is done', () => {
    expect(progressPercent({ required: 3, done: 1 })).toBe(33);
    expect(progressPercent({ required: 0, done: 0 })).toBe(100);
    expect(progressText({ required: 3, done: 2 })).toBe('2 of 3 required items done');
    expect(progressText({ required: 3, done: 2 }, 'in')).toBe('2 of 3 required items in');
  });

  it('counts what the client has sent: uploads awaiting review too, optional items never', () => {
    expect(receivedProgress([
      { required: true, status: 'uploaded' }, { required: true, status: 'requested' }, { required: true, status: 'not_applicable' },
      { required: false, status: 'accepted' },
    ])).toEqual({ required: 3, done: 2 });
  });

  it('compares calendar dates as dates: due today is not overdue, and only open requests are', () => {
    expect(isOverdue({ status: 'open', dueDate: '2030-04-13' }, '2030-04-13')).toBe(false);
    expect(isOverdue({ status: 'open', dueDate: '2030-04-12' }, '2030-04-13')).toBe(true);
    expect(isOverdue({ status: 'completed', dueDate: '2030-04-12' }, '2030-04-13')).toBe(false);
  });

  it('reads a requested item with a staff comment as returned, with its reason', () => {
    expect(isReturned({ status: 'requested', staffComment: 'Blurred' })).toBe(true);
    expect(itemStatusLabel({ status: 'requested', staffComment: 'Blurred' })).toBe('Returned');
    expect(itemStatusLabel({ status: 'requested', staffComment: null })).toBe('Requested');
    expect(itemStatusLabel({ status: 'accepted', staffComment: 'Thanks' })).toBe('Accepted');
  });

  it('offers staff a decision on answered items only, and the client every item not yet accepted', () => {
    expect(staffDecisions({ status: 'uploaded' })).toEqual({ accept: true, reject: true });
    expect(staffDecisions({ status: 'not_applicable' })).toEqual({ accept: true, reject: true });
    expect(staffDecisions({ status: 'requested' })).toEqual({ accept: false, reject: false });
    expect(clientMayAnswer({ status: 'accepted' })).toBe(false);
    expect(clientMayAnswer({ status: 'uploaded' })).toBe(true);
  });

  it('asks for at least one item, each with a title', () => {
    expect(checklistProblem([])).toBe('Add at least one item');
    expect(checklistProblem([{ key: 1, title: ' ', description: null, required: true }])).toBe('Every item needs a title');
    expect(checklistProblem([{ key: 1, title: 'W-2s', description: null, required: true }])).toBeNull();
  });

  it('tells a live link from an expired or revoked one, and from one whose request is done or cancelled', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const live = { expiresAt: '2030-01-02T00:00:00Z', revokedAt: null };
    expect(linkState(live, 'open', now)).toBe('live');
    expect(linkState({ expiresAt: '2029-12-31T00:00:00Z', revokedAt: null }, 'open', now)).toBe('expired');
    expect(linkState({ ...live, revokedAt: '2030-01-01T00:00:00Z' }, 'open', now)).toBe('revoked');
    expect(linkState(live, 'completed', now)).toBe('closed');
    expect(linkState(live, 'cancelled', now)).toBe('paused');
  });
});
