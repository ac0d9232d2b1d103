import { realServerUrl } from './real-servers.ts';
import { eventually } from './eventually.ts';

/** A message as Mailpit's API describes it (GET /api/v1/message/{ID}). */
export interface ReceivedMail {
  ID: string;
  From: { Name: string; Address: string };
  To: { Name: string; Address: string }[];
  Subject: string;
  Text: string;
  HTML: string;
}

export interface MailpitClient {
  /** Where the product sends (SMTP_URL of a test portal). */
  smtpUrl: string;
  /** Every message received for this address, oldest first. */
  messagesTo(address: string): Promise<ReceivedMail[]>;
  /** Waits for the `count`-th message to this address and returns it. */
  waitForMail(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail>;
}

/**
 * The real SMTP server of the e-mail tests (Mailpit, started by `.ci/run`): `MAILPIT_URL` is
 * its HTTP API, `MAILPIT_SMTP_URL` its SMTP side. Undefined when not configured (outside CI).
 * Tests use addresses of their own, so suites running at once never read each other's mail.
 */
export function mailpit(): MailpitClient | undefined {
  const apiUrl = realServerUrl('MAILPIT_URL');
  if (!apiUrl) return undefined;
  const smtpUrl = process.env.MAILPIT_SMTP_URL;
  if (!smtpUrl) throw new Error('MAILPIT_SMTP_URL must be set with MAILPIT_URL');
  const api = async <T>(path: string): Promise<T> => {
    const r = await fetch(new URL(path, apiUrl));
    if (!r.ok) throw new Error(`Mailpit ${path}: ${r.status}`);
    return (await r.json()) as T;
  };
  const messagesTo = async (address: string): Promise<ReceivedMail[]> => {
    const list = await api<{ messages: { ID: string }[] }>(`/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}&limit=200`);
    // The search answers newest first.
    return Promise.all(list.messages.reverse().map((m) => api<ReceivedMail>(`/api/v1/message/${m.ID}`)));
  };
  return {
    smtpUrl,
    messagesTo,
    async waitForMail(address, count = 1, timeoutMs = 15_000) {
      let found: ReceivedMail[] = [];
      await eventually(async () => (found = await messagesTo(address)).length >= count, timeoutMs, 200);
      return found[count - 1]!;
    },
  };
}
