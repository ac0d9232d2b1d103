import { FIRM_DOCUMENT_TYPES, type FirmDocumentType } from '@ledgerline/contracts/files.contracts.ts';

/** The badge of a firm document (spec 001 §2); an unknown or missing type shows the default badge. */
export function documentTypeLabel(type: string | null | undefined): string {
  return type && Object.hasOwn(FIRM_DOCUMENT_TYPES, type) ? FIRM_DOCUMENT_TYPES[type as FirmDocumentType] : FIRM_DOCUMENT_TYPES.other;
}

export type BadgeSeverity = 'success' | 'info' | 'warning' | 'danger' | 'secondary' | 'contrast';

const BADGE_SEVERITIES: Readonly<Record<FirmDocumentType, BadgeSeverity>> = {
  firm_registration_certificate: 'success',
  pan_card: 'info',
  gst_registration: 'warning',
  professional_license: 'danger',
  partnership_deed: 'contrast',
  memorandum_of_association: 'info',
  articles_of_association: 'warning',
  other: 'secondary',
};

export function documentTypeSeverity(type: string | null | undefined): BadgeSeverity {
  return type && Object.hasOwn(BADGE_SEVERITIES, type) ? BADGE_SEVERITIES[type as FirmDocumentType] : BADGE_SEVERITIES.other;
}

/** Dropdown options of the upload dialog's document type, in the spec's order. */
export const DOCUMENT_TYPE_OPTIONS = (Object.entries(FIRM_DOCUMENT_TYPES) as [FirmDocumentType, string][]).map(([value, label]) => ({ value, label }));
