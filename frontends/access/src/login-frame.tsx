import { useLayoutEffect, useState, type ReactNode } from 'react';
import { Message } from 'primereact/message';
import { removeFirstPaint } from '@ledgerline/ui/first-paint.ts';
import { signedOutNotice } from '@ledgerline/ui/session-end.ts';
import { ToastOutlet } from '@ledgerline/ui/toast-outlet.tsx';

export interface LoginFrameProps {
  /** An icon class or the firm's initials shown above the title. */
  mark: ReactNode;
  title: string;
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card every sign-in page sits in; sign-in pages are outside the app layout, so they carry their own toast outlet. */
export function LoginFrame({ mark, title, subtitle, children, footer }: LoginFrameProps) {
  // Whatever a sign-in page shows replaces the gateway's first-paint copy (ui/first-paint.ts).
  useLayoutEffect(removeFirstPaint, []);
  // Why the visitor is here, when the tab was signed out for them (ui/session-end.ts).
  const [notice] = useState(signedOutNotice);
  return (
    <div className="login-page">
      <main className="login-card">
        <div className="login-card__mark" aria-hidden="true">
          {mark}
        </div>
        <h1 className="login-card__title">{title}</h1>
        <p className="login-card__subtitle">{subtitle}</p>
        {notice && <Message severity="info" text={notice} className="login-card__notice" />}
        {children}
        {footer && <div className="login-card__footer">{footer}</div>}
      </main>
      <ToastOutlet />
    </div>
  );
}
