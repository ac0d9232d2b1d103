/** Where the generic login's 'Contact Support' link writes to. */
export const SUPPORT_EMAIL = 'support@ledgerline.example';
