import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BillingService, BillingSettings, CheckoutStart, Invoice, InvoiceSchedule, InvoiceScheduleInput, InvoiceStatus, Receivables,
} from '@ledgerline/contracts/billing.contracts.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson, apiPath, apiQueryPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { getOptional } from '@ledgerline/ui/optional-query.ts';

export interface InvoiceFilters { status?: InvoiceStatus; clientId?: number }

export const useInvoices = (filters: InvoiceFilters) => useQuery<Invoice[]>({ queryKey: [apiQueryPath('invoices', { ...filters, limit: 500 })] });
export const useInvoice = (id: number) => useQuery<Invoice>({ queryKey: [apiPath(`invoices/${id}`)], enabled: id > 0 });
/** A draft's recurring schedule; null when it has none (the API's 404). */
export const useInvoiceSchedule = (id: number, enabled: boolean) => useQuery<InvoiceSchedule | null>({
  queryKey: [apiPath(`invoices/${id}/schedule`)], enabled,
  queryFn: ({ signal }) => getOptional<InvoiceSchedule>(apiPath(`invoices/${id}/schedule`), signal),
});
export const useReceivables = (enabled: boolean) => useQuery<Receivables>({ queryKey: [apiPath('billing/receivables')], enabled });
export const useBillingServices = (enabled: boolean) => useQuery<BillingService[]>({ queryKey: [apiPath('billing/services')], enabled });
export const useBillingSettings = (enabled: boolean) => useQuery<BillingSettings>({ queryKey: [apiPath('billing/settings')], enabled, staleTime: 30_000 });
export const useBillingClients = (enabled: boolean) => useQuery<Client[]>({ queryKey: [apiPath('clients')], enabled, staleTime: 30_000 });

/** A line as the editor sends it (no taxRate: the jurisdiction's for the client). */
export interface NewInvoiceLine { description: string; serviceId: number | null; quantity: number; unitPrice: number; taxRate?: number }
export interface NewInvoice { clientId: number; dueDate: string | null; notes: string | null; lines: NewInvoiceLine[] }

/** Every change refreshes what reads invoices and billing (lists, the open invoice, the ageing). */
export function useBillingMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ['invoices', 'billing']);
  return {
    create: useMutation({ mutationFn: (invoice: NewInvoice) => apiJson<Invoice>('POST', apiPath('invoices'), invoice), onSuccess: refresh }),
    send: useMutation({ mutationFn: (id: number) => apiJson<Invoice>('POST', apiPath(`invoices/${id}/send`)), onSuccess: refresh }),
    void: useMutation({ mutationFn: (id: number) => apiJson<Invoice>('POST', apiPath(`invoices/${id}/void`)), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: number) => apiJson('DELETE', apiPath(`invoices/${id}`)), onSuccess: refresh }),
    pay: useMutation({
      mutationFn: ({ id, payment }: { id: number; payment: { amount: number; method: string; reference: string | null } }) =>
        apiJson<Invoice>('POST', apiPath(`invoices/${id}/payments`), payment),
      onSuccess: refresh,
    }),
    schedule: useMutation({
      mutationFn: ({ id, schedule }: { id: number; schedule: InvoiceScheduleInput }) => apiJson<InvoiceSchedule>('PUT', apiPath(`invoices/${id}/schedule`), schedule),
      onSuccess: refresh,
    }),
    stopSchedule: useMutation({ mutationFn: (id: number) => apiJson('DELETE', apiPath(`invoices/${id}/schedule`)), onSuccess: refresh }),
    addService: useMutation({ mutationFn: (s: { name: string; defaultPrice: number }) => apiJson<BillingService>('POST', apiPath('billing/services'), s), onSuccess: refresh }),
    removeService: useMutation({ mutationFn: (id: number) => apiJson('DELETE', apiPath(`billing/services/${id}`)), onSuccess: refresh }),
  };
}

/** Starts the provider's checkout and goes there. */
export async function payOnline(id: number): Promise<void> {
  const { url } = await apiJson<CheckoutStart>('POST', apiPath(`invoices/${id}/checkout`));
  window.location.assign(url);
}

/** Opens the invoice's PDF in a new tab (the call needs the bearer token, so it is fetched first). */
export async function openInvoicePdf(id: number): Promise<void> {
  const tab = window.open('', '_blank');
  const response = await apiRequest('GET', apiPath(`invoices/${id}/pdf`));
  const url = URL.createObjectURL(await response.blob());
  if (tab) tab.location.href = url;
  else window.location.assign(url);
}
