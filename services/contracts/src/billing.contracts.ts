import { z } from 'zod';
import type { TaxComponent, TaxComponentCode } from './billing-tax.ts';
import { idSchema, intSchema, isoDateSchema, textSchema } from './scalars.ts';

/*
 * Invoices and payments (issue 43). Amounts are integers of the currency's minor unit
 * (contracts/money.ts prints them); totals come from contracts/invoice-totals.ts.
 */

export const INVOICE_STATUSES = ['draft', 'sent', 'partially_paid', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const PAYMENT_METHODS = ['cheque', 'cash', 'bank_transfer', 'card', 'bank_debit'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** What staff record by hand; card and bank debit arrive only from the payment provider. */
export const MANUAL_PAYMENT_METHODS = ['cheque', 'cash', 'bank_transfer'] as const;
export const TAX_TREATMENTS = ['standard', 'zero_rated', 'exempt'] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];
export const AGEING_BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];

export const BILLING_MESSAGES = {
  invoiceNotFound: 'Invoice not found',
  serviceNotFound: 'Billing service not found',
  adminsOnly: 'Only Admin users can manage billing.',
  staffOnly: 'Access denied. Client users cannot see this.',
  draftOnly: 'Only a draft invoice can be changed or deleted',
  notSendable: 'Only a draft invoice can be sent',
  noLines: 'An invoice needs at least one line to be sent',
  notVoidable: 'A paid or void invoice cannot be voided',
  notPayable: 'Payments can only be recorded on a sent or partially paid invoice',
  overpayment: 'The payment is more than the balance of the invoice',
  registrationMissing: (label: string) => `Set the firm's ${label} in billing settings before sending a tax invoice`,
  taxRate: 'Tax rate must be a percentage from 0 to 100 with at most 3 decimals',
  quantity: 'Quantity must be a number from 0 to 1,000,000 with at most 2 decimals',
  unitPrice: 'Unit price must be a whole number of minor units (cents) from 0',
  deleted: 'Invoice deleted',
  serviceDeleted: 'Billing service deleted',
  noProvider: 'Online payment is not set up for this firm: pay by bank transfer to the account shown on the invoice.',
  paidAlready: 'This invoice has nothing left to pay',
} as const;

const optionalText = (field: string, max: number) => textSchema(field, max).nullish().transform((v) => (v?.trim() ? v.trim() : null));
const required = (field: string, max: number) => textSchema(field, max).trim().min(1, `${field} is required`);
/** At most `digits` decimals, checked on the scaled value (floating point gives 0.1 × 100 = 10.000000000000002). */
const decimals = (v: number, digits: number) => Math.abs(v * 10 ** digits - Math.round(v * 10 ** digits)) < 1e-6;
const minorUnits = (field: string, message = `${field} must be a whole number of minor units (cents) from 0`) =>
  z.number({ error: message }).int(message).min(0, message).max(Number.MAX_SAFE_INTEGER / 1000, message);
const taxRateSchema = z.number({ error: BILLING_MESSAGES.taxRate }).min(0, BILLING_MESSAGES.taxRate).max(100, BILLING_MESSAGES.taxRate)
  .refine((v) => decimals(v, 3), BILLING_MESSAGES.taxRate);
/** India: a SAC code of chapter 99 (6 digits). */
const sacCodeSchema = z.string({ error: 'sacCode must be a 6-digit SAC code' }).regex(/^99\d{4}$/, 'sacCode must be a 6-digit SAC code (99xxxx)').nullish()
  .transform((v) => v ?? null);

// The firm's price list

export const billingServiceInputSchema = z.object({
  name: required('name', 200),
  description: optionalText('description', 2000),
  defaultPrice: minorUnits('defaultPrice'),
  taxTreatment: z.enum(TAX_TREATMENTS, { error: `taxTreatment must be one of ${TAX_TREATMENTS.join(', ')}` }).default('standard'),
  sacCode: sacCodeSchema,
});
export type BillingServiceInput = z.input<typeof billingServiceInputSchema>;
export interface BillingService {
  id: number; name: string; description: string | null; defaultPrice: number; taxTreatment: TaxTreatment; sacCode: string | null;
  createdAt: string; updatedAt: string;
}

// The firm's billing settings (billing owns them: identity keeps the firm's country and zone)

export const billingSettingsInputSchema = z.object({
  invoicePrefix: textSchema('invoicePrefix', 12).trim().regex(/^[A-Za-z0-9\-/]*$/, 'invoicePrefix may hold letters, digits, - and / only').default('INV-'),
  /** The firm's address as printed on invoices (several lines). */
  address: optionalText('address', 500),
  /** VAT number (UK), ABN (AU), GSTIN (IN), GST/HST registration (CA); validated for the firm's country. */
  taxRegistration: optionalText('taxRegistration', 30),
  /** The firm's state or province (ISO 3166-2, e.g. IN-MH, CA-ON): India's CGST/SGST split, Canada's default rate. */
  state: z.string({ error: 'state must be an ISO 3166-2 code such as IN-MH or CA-ON' }).regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'state must be an ISO 3166-2 code such as IN-MH or CA-ON').nullish().transform((v) => v ?? null),
  /** US: the sales tax rate a taxable line gets (0: none, the default). */
  salesTaxRatePercent: taxRateSchema.default(0),
  paymentTermsDays: intSchema('paymentTermsDays', 0, 365).default(30),
  /** Printed when no payment provider is configured (or always, as an alternative). */
  bankDetails: optionalText('bankDetails', 500),
  /** Reminders for unpaid invoices (09:00 in the firm's zone): off, or a few days before the due date, on it, and every few days after. */
  remindersEnabled: z.boolean({ error: 'remindersEnabled must be true or false' }).default(true),
  /** Days before the due date of the first reminder (0: none before it). */
  reminderDaysBefore: intSchema('reminderDaysBefore', 0, 60).default(3),
  /** Days between reminders after the due date (0: none after it). */
  reminderEveryDaysAfter: intSchema('reminderEveryDaysAfter', 0, 90).default(7),
});
export type BillingSettingsInput = z.input<typeof billingSettingsInputSchema>;
export interface BillingSettings {
  invoicePrefix: string; address: string | null; taxRegistration: string | null; state: string | null; salesTaxRatePercent: number;
  paymentTermsDays: number; bankDetails: string | null;
  remindersEnabled: boolean; reminderDaysBefore: number; reminderEveryDaysAfter: number;
  /** What the firm's country is (from identity) and what follows from it. */
  country: string; currency: string; taxName: string; registrationLabel: string | null;
  /** Whether a card/bank-debit provider is configured on this installation. */
  onlinePayments: boolean;
}

// Invoices

export const invoiceLineInputSchema = z.object({
  description: required('description', 500),
  serviceId: idSchema('serviceId').nullish().transform((v) => v ?? null),
  quantity: z.number({ error: BILLING_MESSAGES.quantity }).min(0, BILLING_MESSAGES.quantity).max(1_000_000, BILLING_MESSAGES.quantity)
    .refine((v) => decimals(v, 2), BILLING_MESSAGES.quantity).default(1),
  /** Absent: the service's default price. */
  unitPrice: minorUnits('unitPrice', BILLING_MESSAGES.unitPrice).optional(),
  /** Absent: the jurisdiction's standard rate for the client (zero for a zero-rated or exempt service). */
  taxRate: taxRateSchema.optional(),
});
export type InvoiceLineInputBody = z.input<typeof invoiceLineInputSchema>;
/** A line as the server has read it. */
export type InvoiceLineValues = z.output<typeof invoiceLineInputSchema>;

const linksSchema = z.object({
  trackerItemId: idSchema('trackerItemId').nullish(),
  signatureRequestId: idSchema('signatureRequestId').nullish(),
  organizerId: idSchema('organizerId').nullish(),
}).partial();

export const invoiceInputSchema = z.object({
  clientId: idSchema('clientId'),
  lines: z.array(invoiceLineInputSchema, { error: 'lines must be a list' }).max(200, 'An invoice may have at most 200 lines').default([]),
  /** Absent: the day it is sent (firm's zone). */
  issueDate: isoDateSchema('issueDate').nullish().transform((v) => v ?? null),
  /** Absent: the issue date plus the firm's payment terms. */
  dueDate: isoDateSchema('dueDate').nullish().transform((v) => v ?? null),
  notes: optionalText('notes', 2000),
  links: linksSchema.default({}),
});
export type InvoiceInput = z.input<typeof invoiceInputSchema>;
export const invoiceUpdateSchema = invoiceInputSchema.omit({ clientId: true }).partial().extend({
  lines: z.array(invoiceLineInputSchema, { error: 'lines must be a list' }).max(200, 'An invoice may have at most 200 lines').optional(),
  notes: optionalText('notes', 2000).optional(),
});

export const invoiceListQuerySchema = z.object({
  status: z.enum(INVOICE_STATUSES, { error: `status must be one of ${INVOICE_STATUSES.join(', ')}` }).optional(),
  clientId: idSchema('clientId').optional(),
  limit: intSchema('limit', 1, 500).default(100),
  offset: intSchema('offset', 0, 1_000_000).default(0),
});

export const paymentInputSchema = z.object({
  amount: minorUnits('amount').refine((v) => v > 0, 'amount must be more than 0'),
  method: z.enum(MANUAL_PAYMENT_METHODS, { error: `method must be one of ${MANUAL_PAYMENT_METHODS.join(', ')}` }),
  /** Defaults to today in the firm's zone. */
  receivedOn: isoDateSchema('receivedOn').nullish().transform((v) => v ?? null),
  reference: optionalText('reference', 200),
});

export interface InvoiceLine {
  description: string; serviceId: number | null; quantity: number; unitPrice: number; taxRate: number; sacCode: string | null;
  net: number; tax: number; components: (TaxComponent & { amount: number })[];
}
export interface Payment { id: number; amount: number; method: PaymentMethod; receivedOn: string; reference: string | null; recordedAt: string }
export interface Invoice {
  id: number;
  /** Null while a draft: numbers are given at sending, so drafts leave no gaps. */
  number: string | null;
  clientId: number; clientName: string;
  /** The client's state when the invoice was sent (the place of supply). */
  clientState: string | null;
  status: InvoiceStatus;
  issueDate: string | null; dueDate: string | null; currency: string; country: string;
  lines: InvoiceLine[];
  subtotal: number; tax: number; total: number; amountPaid: number; balance: number;
  taxSummary: { code: TaxComponentCode; ratePercent: number; taxable: number; amount: number }[];
  notes: string | null;
  links: { trackerItemId?: number | null; signatureRequestId?: number | null; organizerId?: number | null };
  payments: Payment[];
  /** GET one invoice: whether "Pay now" can work (a provider is configured and something is owed). */
  canPayOnline?: boolean;
  sentAt: string | null; voidedAt: string | null; createdAt: string; updatedAt: string;
}

export interface ReceivablesRow { clientId: number; clientName: string; currency: string; buckets: Record<AgeingBucket, number>; total: number }
export interface Receivables { asOf: string; currency: string; clients: ReceivablesRow[]; totals: Record<AgeingBucket, number> & { total: number } }

/** Online payment (item 4): where the client is sent to pay. */
export interface CheckoutStart { url: string }

// Events, pushes and reminders (issue 43: activity entries, pushes, receipts, reminders)

/** Billing's outbox event: an invoice was sent, paid (in full or in part) or voided. */
export const INVOICE_CHANGED = 'invoice.changed';
export const INVOICE_ACTIONS = ['sent', 'paid', 'partially_paid', 'voided'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];
export interface InvoiceChanged {
  invoiceId: number; number: string; clientId: number; clientName: string;
  action: InvoiceAction; status: InvoiceStatus;
  currency: string; total: number; amountPaid: number; balance: number;
  /** The payment that caused a paid / partially_paid change. */
  payment?: { amount: number; method: PaymentMethod } | undefined;
  /** Who did it (the System actor, id 0, for the payment provider's webhook and the scheduler). */
  actorId: number; actorName: string;
}

/** The realtime event name of an invoice's change, pushed to the users who reach its client. */
export const INVOICE_PUSH = 'invoice.changed';
export interface InvoicePush {
  invoiceId: number; number: string; clientId: number; action: InvoiceAction; status: InvoiceStatus; balance: number; currency: string;
}

/** Reminders for unpaid invoices, as the firm sets them (billing settings). */
export const REMINDER_DEFAULTS = { enabled: true, daysBefore: 3, everyDaysAfter: 7 } as const;

// Recurring invoices: a schedule on a draft, the template of each invoice it issues

export const INVOICE_FREQUENCIES = ['monthly', 'quarterly'] as const;
export type InvoiceFrequency = (typeof INVOICE_FREQUENCIES)[number];
export const RECURRING_MESSAGES = {
  notFound: 'This invoice has no schedule',
  draftOnly: 'Only a draft invoice can be the template of a recurring invoice',
  pastDate: 'nextIssueDate cannot be before today',
  stopped: 'Schedule stopped',
  templateSent: 'The template was sent or deleted: the schedule stopped',
} as const;

export const invoiceScheduleInputSchema = z.object({
  frequency: z.enum(INVOICE_FREQUENCIES, { error: `frequency must be one of ${INVOICE_FREQUENCIES.join(', ')}` }),
  /** The first invoice's issue date (09:00 in the firm's zone); later ones fall on the same day of the month (or the month's last). */
  nextIssueDate: isoDateSchema('nextIssueDate'),
  /** Days from issue to due; absent: the firm's payment terms. */
  dueInDays: intSchema('dueInDays', 0, 365).nullish().transform((v) => v ?? null),
});
export type InvoiceScheduleInput = z.input<typeof invoiceScheduleInputSchema>;
export interface InvoiceSchedule {
  templateId: number; frequency: InvoiceFrequency; nextIssueDate: string; dueInDays: number | null;
  /** False once the template stopped being a draft, or an issue could not be made (`pausedReason` says why). */
  active: boolean; pausedReason: string | null;
  lastInvoiceId: number | null; lastIssuedOn: string | null; createdAt: string; updatedAt: string;
}
