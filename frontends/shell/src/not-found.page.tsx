import { Card } from 'primereact/card';
import { useLayoutEffect } from 'react';
import { removeEveryFirstPaint } from '@ledgerline/ui/first-paint.ts';

/** Spec 000 §2: any path no route claims. */
export function NotFoundPage() {
  // Also when the gateway wrote a firm's sign-in for a path the app does not know (ui/first-paint.ts).
  useLayoutEffect(removeEveryFirstPaint, []);
  return (
    <div className="page-centered">
      <Card className="not-found">
        <h1 className="not-found__title">
          <i className="pi pi-exclamation-circle" aria-hidden="true" /> 404 Page Not Found
        </h1>
        <p>Did you forget to add the page to the router?</p>
      </Card>
    </div>
  );
}
