import { Component, Suspense, useLayoutEffect, type ErrorInfo, type ReactNode } from 'react';
import { removeEveryFirstPaint, removeHomeFirstPaint } from '@ledgerline/ui/first-paint.ts';
import { LoadingScreen } from './loading-screen.tsx';

interface BoundaryState {
  error: Error | null;
}

/**
 * Around every route element, so a remote page that throws (or fails to load a lazy chunk)
 * takes down only its own content, never the shell's navigation.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A page failed to render', error, info.componentStack);
    // The message shows, not a first-paint copy that can no longer be taken over.
    removeEveryFirstPaint();
  }

  override render() {
    if (this.state.error) {
      return (
        <div className="route-error" role="alert">
          <h2>This page could not be shown.</h2>
          <p>{this.state.error.message}</p>
        </div>
      );
    }
    return (
      <Suspense fallback={<LoadingScreen />}>
        {this.props.children}
        <ContentIn />
      </Suspense>
    );
  }
}

/**
 * Mounts, with the page, once everything the page waited for is in (the Suspense boundary above
 * commits its content together): the home's first-paint copy gives way in that same frame.
 */
function ContentIn() {
  useLayoutEffect(removeHomeFirstPaint, []);
  return null;
}
