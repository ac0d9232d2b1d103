import { createHash } from 'node:crypto';

/*
 * What the pages the gateway writes a first paint into share (sign-in-page.ts, home-page.ts):
 * the app's typeface and colours, so the copy looks as the app will, and the CSP source of an
 * inline script.
 */

/** The app's typeface stack (frontends/ui/src/theme.css). */
export const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Liberation Sans',sans-serif";
/** The PrimeReact theme's colours the copies use. */
export const COLOURS = { primary: '#1d4ed8', text: '#4b5563', secondaryText: '#6b7280', ground: '#f9fafb', card: '#fff', border: '#dfe7ef' } as const;

/** The script-src source that allows exactly this inline script (gateway.ts adds it to the CSP). */
export const scriptHashSource = (script: string): string => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
