import { afterEach, describe, expect, it } from '@jest/globals';
import type { ComplianceItem, TrackerDocumentRequest } from '@ledgerline/contracts/compliance.contracts.ts';
import type { DocumentRequestPush } from '@ledgerline/contracts/requests.contracts.ts';
import { forgetDocumentRequestPushes, rememberDocumentRequestPush, withPushedDocumentRequest } from '../src/pushed-document-requests.ts';

const ITEM = 26;
const item = (documentRequest: TrackerDocumentRequest | null) => ({ id: ITEM, documentRequest }) as ComplianceItem;
const push = (requestId: number, revision: number, done: number, status: DocumentRequestPush['status'] = 'open', trackerItemId: number | null = ITEM): DocumentRequestPush => ({
  requestId, clientId: 1, trackerItemId, title: 'GSTR-3B', status, progress: { required: 2, done }, revision, action: 'item_not_applicable', actorName: 'Client',
});
const shown = (i: ComplianceItem) => i.documentRequest && { id: i.documentRequest.id, status: i.documentRequest.status, done: i.documentRequest.done };

describe('document request pushes on the tracker', () => {
  afterEach(forgetDocumentRequestPushes);

  it('keeps the newest of pushes that arrive out of order', () => {
    expect(rememberDocumentRequestPush(push(7, 3, 2, 'completed'))).toBe(true);
    expect(rememberDocumentRequestPush(push(7, 2, 1))).toBe(false);
    expect(shown(withPushedDocumentRequest(item({ id: 7, status: 'open', required: 2, done: 0, revision: 1 })))).toEqual({ id: 7, status: 'completed', done: 2 });
  });

  it('a read older than a push keeps the push; a newer read wins', () => {
    rememberDocumentRequestPush(push(7, 3, 2, 'completed'));
    expect(shown(withPushedDocumentRequest(item({ id: 7, status: 'open', required: 2, done: 1, revision: 2 })))).toEqual({ id: 7, status: 'completed', done: 2 });
    expect(shown(withPushedDocumentRequest(item({ id: 7, status: 'open', required: 2, done: 0, revision: 5 })))).toEqual({ id: 7, status: 'open', done: 0 });
    expect(shown(withPushedDocumentRequest(item({ id: 9, status: 'open', required: 1, done: 0, revision: 1 })))).toEqual({ id: 9, status: 'open', done: 0 });
  });

  it('a new request replaces an older one; a push about an older request changes nothing', () => {
    rememberDocumentRequestPush(push(8, 1, 0));
    expect(rememberDocumentRequestPush(push(7, 9, 2, 'completed'))).toBe(false);
    expect(shown(withPushedDocumentRequest(item(null)))).toEqual({ id: 8, status: 'open', done: 0 });
  });

  it('a cancelled request leaves its item, and leaves another request shown', () => {
    rememberDocumentRequestPush(push(7, 4, 0, 'cancelled'));
    expect(withPushedDocumentRequest(item({ id: 7, status: 'open', required: 2, done: 0, revision: 3 })).documentRequest).toBeNull();
    expect(withPushedDocumentRequest(item(null)).documentRequest).toBeNull();
    expect(shown(withPushedDocumentRequest(item({ id: 9, status: 'open', required: 2, done: 0, revision: 1 })))).toEqual({ id: 9, status: 'open', done: 0 });
  });

  it('a push for a request made outside the tracker is ignored', () => {
    expect(rememberDocumentRequestPush(push(7, 1, 0, 'open', null))).toBe(false);
    expect(withPushedDocumentRequest(item(null)).documentRequest).toBeNull();
  });
});
