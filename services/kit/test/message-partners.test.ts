import { describe, expect, it } from '@jest/globals';
import { PLATFORM_ADMIN_SCOPE, storedUserScope } from '../src/access/access-scope.ts';
import { membersWhoMustLeave, type ConversationMember } from '../src/access/message-partners.ts';

const member = (userId: number, role: string, clientIds: number[], changedAtMs: number): ConversationMember =>
  ({ userId, scope: storedUserScope({ role, clientIds, reportTypeIds: [] }), changedAtMs });

describe('who must leave a conversation once access changed', () => {
  it('keeps a conversation whose members may all still talk', () => {
    expect(membersWhoMustLeave([member(1, 'Client', [2], 10), member(2, 'CPA', [1, 2], 20), member(3, 'Admin', [], 5)])).toEqual([]);
  });

  it('sends away the one whose access changed later: the CPA who lost the client, the user demoted to Client', () => {
    expect(membersWhoMustLeave([member(1, 'Client', [2], 10), member(2, 'CPA', [1], 50)])).toEqual([2]);
    // Demoted: two Client users may never talk; the Admin stays with the one who did not change.
    expect(membersWhoMustLeave([member(4, 'Client', [1], 60), member(3, 'Admin', [], 5), member(5, 'Client', [2], 10)])).toEqual([4]);
    // A Client user moved to another client leaves the CPA of their old one.
    expect(membersWhoMustLeave([member(6, 'CPA', [2], 10), member(7, 'Client', [1], 70)])).toEqual([7]);
  });

  it('never weighs platform administrators or members it cannot judge against anyone', () => {
    const root: ConversationMember = { userId: -1, scope: PLATFORM_ADMIN_SCOPE, changedAtMs: Number.MIN_SAFE_INTEGER };
    const unknown: ConversationMember = { userId: 9, scope: null, changedAtMs: 0 };
    expect(membersWhoMustLeave([root, unknown, member(1, 'Client', [2], 10)])).toEqual([]);
  });
});
