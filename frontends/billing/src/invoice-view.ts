import type { InvoiceStatus } from '@ledgerline/contracts/billing.contracts.ts';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';

export const INVOICE_STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft', sent: 'Sent', partially_paid: 'Partially paid', paid: 'Paid', void: 'Void',
};
export const INVOICE_STATUS_SEVERITY: Record<InvoiceStatus, 'secondary' | 'info' | 'warning' | 'success' | 'danger'> = {
  draft: 'secondary', sent: 'info', partially_paid: 'warning', paid: 'success', void: 'danger',
};

export const money = (minor: number, currency: string): string => formatMinorUnits(minor, currency);

/** What a person types ('1,500.50') as minor units of a two-decimal currency; null when it is not an amount. */
export function toMinorUnits(typed: string): number | null {
  const clean = typed.replace(/[,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, fraction = ''] = clean.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
