import { describe, expect, it } from '@jest/globals';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { OrganizerSummary } from '@ledgerline/contracts/organizers.contracts.ts';
import type { DocumentRequestSummary } from '@ledgerline/contracts/requests.contracts.ts';
import type { SignatureRequestSummary, SignerView } from '@ledgerline/contracts/signatures.contracts.ts';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { clientInvoiceEntries, clientOrganizerEntries, clientRequestEntries, clientSignatureEntries, complianceEntries, myTaskEntries, requestsToReview, returnEntries, returnSentence, uploadEntries } from '../src/my-work.ts';

const task = (id: number, assignedToId: number | null, dueDate: string): Task => ({
  id, title: `Task ${id}`, description: null, priority: 'medium', status: 'pending', dueDate, assignedToId, assignedToName: null,
  createdById: 1, clientIds: [], clientName: id === 1 ? 'Mehta Exports' : null, reportTypeId: null, isRecurring: false, recurringPattern: null,
  recurringEndDate: null, completedAt: null, createdAt: '', updatedAt: '', clientProgress: { done: 0, total: 0 }, latestClientComment: null,
});

const item = (id: number, dueDate: string, status: ComplianceItem['status']): ComplianceItem => ({
  id, scheduleId: 1, clientId: 7, clientName: 'Mehta Exports', reportTypeId: 2, reportTypeName: 'GST Return', period: 'Oct 2026',
  periodStart: '2026-10-01', periodEnd: '2026-10-31', statutoryDueDate: dueDate, dueDate, dueDateReason: null, holidayCalendar: null, status, filedDate: null,
  extendedDueDate: null, extensionDate: null, remarks: null,
  assignedToId: null, assignedToName: null, aiConfidence: 0, autoDetected: false, sourceFileId: null, createdAt: '', updatedAt: '', documentRequest: null, signedDocument: null,
  stage: 'not-started', stageName: 'Not started', clientStage: 'Not started yet',
});

const request = (id: number, assignedToId: number, dueDate: string, uploaded = 0): DocumentRequestSummary => ({
  id, clientId: 7, clientName: 'Mehta Exports', title: `Request ${id}`, message: null, dueDate, status: 'open', reminderEveryDays: 3,
  reportTypeId: null, trackerItemId: null, assignedToId, assignedToName: 'Priya', createdById: 1, createdAt: '', updatedAt: '', lastActivityAt: '',
  progress: { required: 4, done: 1, uploaded },
});

describe('home panels', () => {
  it('my tasks: only the viewer\'s, overdue first and marked, each opening its task', () => {
    const entries = myTaskEntries([task(3, 5, '2026-11-20'), task(4, 6, '2026-11-19')], [task(1, 5, '2026-11-27'), task(2, 6, '2026-11-28')], 5);
    expect(entries.map((e) => [e.title, e.overdue, e.href, e.detail])).toEqual([
      ['Task 3', true, '/tasks?task=3', 'No client'],
      ['Task 1', false, '/tasks?task=1', 'Mehta Exports'],
    ]);
  });

  it('compliance due soon: filed items left out, soonest first, each opening the compliance page at its item', () => {
    const entries = complianceEntries([item(2, '2026-12-05', 'pending'), item(1, '2026-11-30', 'delayed'), item(3, '2026-11-29', 'filed')]);
    expect(entries.map((e) => [e.title, e.dueDate, e.href])).toEqual([
      ['GST Return · Oct 2026', '2026-11-30', '/compliance?item=1'],
      ['GST Return · Oct 2026', '2026-12-05', '/compliance?item=2'],
    ]);
  });

  it('uploads to review: a reviewer sees their own requests, Admin and DTA all; one entry per request with uploads, saying how many', () => {
    const open = [request(1, 5, '2026-12-01'), request(2, 6, '2026-12-02')];
    expect(requestsToReview(open, 5, false).map((r) => r.id)).toEqual([1]);
    expect(requestsToReview(open, 5, true).map((r) => r.id)).toEqual([1, 2]);
    const entries = uploadEntries([request(1, 5, '2026-11-20', 2), request(3, 5, '2026-12-01', 0)], '2026-11-26');
    expect(entries).toEqual([
      { key: 'upload-1', title: 'Request 1', detail: 'Mehta Exports · 2 to review', dueDate: '2026-11-20', overdue: true, href: '/requests/1' },
    ]);
  });

  it("a Client user's open requests carry their progress and open /requests/{id}", () => {
    const summary = request(9, 5, '2026-12-01');
    expect(clientRequestEntries([summary, { ...summary, id: 10, status: 'completed' }], '2026-11-26')).toEqual([
      { key: 'request-9', title: 'Request 9', detail: '1 of 4 required items done', dueDate: '2026-12-01', overdue: false, href: '/requests/9', progress: { required: 4, done: 1, uploaded: 0 } },
    ]);
  });

  it('your returns: one per kind of return, the soonest due not filed, else the last filed; in plain words with the stage clients see', () => {
    const ret = (id: number, reportTypeId: number, period: string, dueDate: string, status: ComplianceItem['status'], clientStage: string | null): ComplianceItem => ({
      ...item(id, dueDate, status), reportTypeId, reportTypeName: reportTypeId === 1 ? 'Form 1040' : 'Sales Tax', period, clientStage, stage: null, stageName: null,
    });
    const entries = returnEntries([
      ret(1, 1, '2025', '2026-04-15', 'filed', 'Filed'), ret(2, 1, '2026', '2027-04-15', 'pending', 'We are preparing it'),
      ret(3, 2, 'Q1 2026', '2026-04-30', 'filed', 'Filed'), ret(4, 2, 'Q2 2026', '2026-07-31', 'filed', 'Filed'),
    ], '2026-11-26');
    expect(entries.map((e) => [e.title, e.dueDate, e.overdue, e.href])).toEqual([
      ['Your Q2 2026 Sales Tax: filed', null, false, '/compliance?item=4'],
      ['Your 2026 Form 1040: we are preparing it', '2027-04-15', false, '/compliance?item=2'],
    ]);
    // Still open after its due date: overdue; on the day itself, not yet.
    const late = returnEntries([ret(5, 2, 'Q3 2026', '2026-10-31', 'pending', 'Waiting on you'), ret(6, 1, '2025', '2026-11-26', 'pending', null)], '2026-11-26');
    expect(late.map((e) => [e.title, e.overdue])).toEqual([['Your Q3 2026 Sales Tax: waiting on you', true], ['Your 2025 Form 1040: not started yet', false]]);
    expect(returnSentence({ period: '2026', reportTypeName: 'tax return', clientStage: null })).toBe('Your 2026 tax return: not started yet');
  });
});

describe('a Client user\'s invoices to pay', () => {
  const invoice = (id: number, status: Invoice['status'], dueDate: string | null, balance: number): Invoice => ({
    id, number: `INV-${id}`, clientId: 7, clientName: 'Mehta Exports', clientState: null, status, issueDate: '2026-11-01', dueDate, currency: 'USD', country: 'US',
    lines: [], subtotal: balance, tax: 0, total: balance, amountPaid: 0, balance, taxSummary: [], notes: null, links: {}, payments: [],
    sentAt: null, voidedAt: null, createdAt: '', updatedAt: '',
  });

  it('lists the sent and partly paid ones with a balance, soonest due first, overdue marked; never paid, void or drafts', () => {
    const entries = clientInvoiceEntries([
      invoice(1, 'sent', '2026-12-15', 45000), invoice(2, 'partially_paid', '2026-11-20', 25000), invoice(3, 'paid', '2026-11-01', 0),
      invoice(4, 'void', '2026-11-01', 0), invoice(5, 'draft', null, 100),
    ], '2026-11-26');
    expect(entries).toEqual([
      { key: 'invoice-2', title: 'Invoice INV-2', detail: '$250.00 to pay', dueDate: '2026-11-20', overdue: true, href: '/invoices/2' },
      { key: 'invoice-1', title: 'Invoice INV-1', detail: '$450.00 to pay', dueDate: '2026-12-15', overdue: false, href: '/invoices/1' },
    ]);
  });
});


describe("a Client user's documents to sign", () => {
  const signer = (userId: number | null, name: string, order: number, status: SignerView['status']): SignerView => ({
    index: 0, userId, name, email: `${name.toLowerCase()}@example.com`, role: 'taxpayer', order, status, viewedAt: null, consentedAt: null, identityVerifiedAt: null,
    signedAt: null, declinedAt: null, declineReason: null, identityResult: null, address: null, browser: null, lockedOut: false, knowledgeQuestions: 0,
  });
  const request = (id: number, status: SignatureRequestSummary['status'], dueDate: string | null, signers: SignerView[]): SignatureRequestSummary => ({
    id, clientId: 7, clientName: 'Jordan & Pat Household', title: `Form 8879 #${id}`, message: null, status, dueDate, reminderEveryDays: null, reportTypeId: 1, trackerItemId: null,
    identity: 'sign_in_second_factor', signers, createdById: 1, createdByName: 'Admin', createdAt: '', sentAt: '', completedAt: null, voidReason: null,
    signedFileId: null, signedSha256: null, releaseOnPaymentOf: null, releaseInvoiceNumber: null, documentCount: 1,
  });

  it("lists the sent requests the user has still to sign, soonest due first, each opening the signing page; says who signs first; never drafts, finished or others' turns taken", () => {
    const entries = clientSignatureEntries([
      request(1, 'sent', '2026-12-10', [signer(5, 'Jordan', 1, 'pending'), signer(null, 'Pat', 1, 'pending')]),
      request(2, 'sent', '2026-11-20', [signer(null, 'Pat', 1, 'pending'), signer(5, 'Jordan', 2, 'pending')]),
      request(3, 'sent', '2026-11-01', [signer(5, 'Jordan', 1, 'signed'), signer(null, 'Pat', 2, 'pending')]),
      request(4, 'completed', '2026-11-01', [signer(5, 'Jordan', 1, 'signed')]),
      request(5, 'sent', null, [signer(9, 'Someone Else', 1, 'pending')]),
      request(6, 'sent', null, [signer(5, 'Jordan', 1, 'declined')]),
    ], 5, 'acme', '2026-11-26');
    expect(entries).toEqual([
      { key: 'signature-2', title: 'Form 8879 #2', detail: 'Pat signs first', dueDate: '2026-11-20', overdue: true, href: '/sign/portal/acme/2', external: true },
      { key: 'signature-1', title: 'Form 8879 #1', detail: 'Waiting for your signature', dueDate: '2026-12-10', overdue: false, href: '/sign/portal/acme/1', external: true },
    ]);
  });
});

describe("a Client user's organizers to answer", () => {
  const organizer = (id: number, status: OrganizerSummary['status'], dueDate: string, answeredCount = 0): OrganizerSummary => ({
    id, clientId: 1, clientName: 'Jordan', templateId: 1, templateName: '1040', year: 2026, title: `Organizer ${id}`, status, dueDate,
    reportTypeId: null, trackerItemId: null, requestId: null, reportFileId: null, answeredCount, questionCount: 12,
    sentAt: null, submittedAt: null, reviewedAt: null, updatedAt: '2027-01-01T00:00:00Z',
  });

  it('lists the sent and started ones, soonest due first, overdue marked, each opening the organizer; never drafts or submitted ones', () => {
    const entries = clientOrganizerEntries([
      organizer(1, 'in_progress', '2027-03-01', 4), organizer(2, 'sent', '2027-02-01'), organizer(3, 'draft', '2027-01-01'),
      organizer(4, 'submitted', '2027-01-01'), organizer(5, 'reviewed', '2027-01-01'),
    ], '2027-02-15');
    expect(entries).toEqual([
      { key: 'organizer-2', title: 'Organizer 2', detail: 'Answer the organizer', dueDate: '2027-02-01', overdue: true, href: '/requests/organizers/2' },
      { key: 'organizer-1', title: 'Organizer 1', detail: 'Answer the organizer: 4 of 12 answered', dueDate: '2027-03-01', overdue: false, href: '/requests/organizers/1' },
    ]);
  });
});
