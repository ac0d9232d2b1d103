import { useQuery } from '@tanstack/react-query';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { addDays } from '@ledgerline/contracts/firm-time-zone.ts';
import type { OrganizerSummary } from '@ledgerline/contracts/organizers.contracts.ts';
import { ORGANIZER_PUSH } from '@ledgerline/contracts/organizers.constants.ts';
import type { DocumentRequestSummary } from '@ledgerline/contracts/requests.contracts.ts';
import { DOCUMENT_REQUEST_PUSH } from '@ledgerline/contracts/requests.constants.ts';
import type { SignatureRequestSummary } from '@ledgerline/contracts/signatures.contracts.ts';
import { SIGNATURE_PUSH } from '@ledgerline/contracts/signatures.constants.ts';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { firmActorId, isClientRole, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { canSetUpFirmWork } from '@ledgerline/ui/permissions.ts';
import { usePushRefresh } from '@ledgerline/ui/realtime-connection.ts';
import { STAGE_PUSH } from '@ledgerline/contracts/stages.constants.ts';
import {
  clientInvoiceEntries, clientOrganizerEntries, clientRequestEntries, clientSignatureEntries, COMPLIANCE_SOON_DAYS, complianceEntries, MY_TASKS_DAYS, myTaskEntries, requestsToReview, returnEntries, uploadEntries, type WorkEntry,
} from './my-work.ts';

/*
 * The reads behind the home panels. Each service scopes its answer to the caller (a CPA gets
 * only their clients and report types, a Client user their own client), so the panels only
 * narrow further to "mine".
 */

export interface PanelState<E extends WorkEntry = WorkEntry> {
  entries: E[] | undefined;
  error: unknown;
}

export interface MyWork {
  /** Staff only: tasks, and uploads waiting for review. */
  tasks: PanelState | null;
  uploads: PanelState | null;
  /** Client users only: their returns and the stage each is at (issue 42). */
  returns: PanelState | null;
  /** Client users only: their open document requests. */
  requests: PanelState<ReturnType<typeof clientRequestEntries>[number]> | null;
  /** Client users only: their invoices with something to pay. */
  invoices: PanelState | null;
  /** Client users only: the organizers waiting for their answers. */
  organizers: PanelState | null;
  /** Client users only: the signature requests waiting for them. */
  signatures: PanelState | null;
  compliance: PanelState;
  /** Every panel has its answer (or its error): the charts below may load now. */
  settled: boolean;
}

export function useMyWork(user: StoredUser, tenant: string): MyWork {
  const client = isClientRole(user.role);
  const me = firmActorId(user);
  // The firm's day, as the server's overdue and upcoming tasks count it; the window waits for it.
  const today = useFirmToday(tenant);
  const staffOnly = { enabled: !client };

  const overdue = useQuery<Task[]>({ queryKey: [apiPath('tasks/overdue', { tenant })], ...staffOnly });
  const upcoming = useQuery<Task[]>({ queryKey: [apiPath(`tasks/upcoming?days=${MY_TASKS_DAYS - 1}`, { tenant })], ...staffOnly });
  // The tracker's range is of calendar dates, as the Compliance calendar asks for it.
  const tracker = useQuery<ComplianceItem[]>({
    queryKey: [apiQueryPath('compliance-tracker', { startDate: today, endDate: today && addDays(today, COMPLIANCE_SOON_DAYS), limit: 200 }, { tenant })],
    enabled: today !== undefined,
  });
  // A Client user's returns: from the start of the firm's year to the end of the next (a year's return is due the year after).
  const returns = useQuery<ComplianceItem[]>({
    queryKey: [apiQueryPath('compliance-tracker', { startDate: today && `${today.slice(0, 4)}-01-01`, endDate: today && `${Number(today.slice(0, 4)) + 1}-12-31`, limit: 500 }, { tenant })],
    enabled: client && today !== undefined,
  });
  usePushRefresh(client, STAGE_PUSH, ['compliance-tracker']);
  const billed = useQuery<Invoice[]>({ queryKey: [apiQueryPath('invoices', { limit: 100 }, { tenant })], enabled: client });
  // The service lists a Client user only the requests they sign.
  const toSign = useQuery<SignatureRequestSummary[]>({ queryKey: [apiQueryPath('signature-requests', { status: 'sent', limit: 100 }, { tenant })], enabled: client });
  usePushRefresh(client, SIGNATURE_PUSH, ['signature-requests']);
  // The service lists a Client user only their own client's organizers.
  const toAnswer = useQuery<OrganizerSummary[]>({ queryKey: [apiQueryPath('organizers', { limit: 100 }, { tenant })], enabled: client });
  usePushRefresh(client, ORGANIZER_PUSH, ['organizers']);
  const open = useQuery<DocumentRequestSummary[]>({ queryKey: [apiQueryPath('document-requests', { status: 'open', limit: 100 }, { tenant })] });
  // Uploads to review and a client's progress follow the requests as they change.
  usePushRefresh(true, DOCUMENT_REQUEST_PUSH, ['document-requests']);

  const tasks: PanelState | null = client ? null : {
    entries: overdue.data && upcoming.data ? myTaskEntries(overdue.data, upcoming.data, me) : undefined,
    error: overdue.error ?? upcoming.error,
  };
  const uploads: PanelState | null = client ? null : {
    entries: open.data && today !== undefined ? uploadEntries(requestsToReview(open.data, me, canSetUpFirmWork(user)), today) : undefined,
    error: open.error,
  };
  const requests = client ? { entries: open.data && today !== undefined ? clientRequestEntries(open.data, today) : undefined, error: open.error } : null;
  const invoices = client ? { entries: billed.data && today !== undefined ? clientInvoiceEntries(billed.data, today) : undefined, error: billed.error } : null;
  const signatures = client ? { entries: toSign.data && today !== undefined ? clientSignatureEntries(toSign.data, me, tenant, today) : undefined, error: toSign.error } : null;
  const organizers = client ? { entries: toAnswer.data && today !== undefined ? clientOrganizerEntries(toAnswer.data, today) : undefined, error: toAnswer.error } : null;
  const compliance: PanelState = { entries: tracker.data && complianceEntries(tracker.data), error: tracker.error };
  const yourReturns: PanelState | null = client ? { entries: returns.data && today !== undefined ? returnEntries(returns.data, today) : undefined, error: returns.error } : null;
  const panels = [tasks, uploads, requests, organizers, invoices, signatures, compliance, yourReturns].filter((p): p is PanelState => p !== null);
  return { tasks, uploads, requests, organizers, invoices, signatures, compliance, returns: yourReturns, settled: panels.every((p) => p.entries !== undefined || p.error) };
}
