import { SMTPServer } from 'smtp-server';

/** A mail as a real SMTP server received it: its envelope's recipients and its raw body. */
export interface CapturedMail { to: string; body: string }

/**
 * A real SMTP server on a free loopback port that keeps every mail it receives, for suites that
 * check what the product's mailer sent (SMTP_URL points at `url`) without Mailpit.
 */
export async function startSmtpCapture(): Promise<{ url: string; mails: CapturedMail[]; close(): Promise<void> }> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let body = '';
      stream.on('data', (c: Buffer) => { body += c.toString(); });
      stream.on('end', () => { mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), body }); done(); });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
