import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';

/** How far below the screen a part starts to be drawn: half a screen, so a scroll rarely meets the empty box. */
const AHEAD = '0px 0px 50% 0px';

/**
 * Draws its children once they come within half a screen of the viewport, and keeps them from
 * then on; until then an empty box of `reserve` height holds their place. For a costly part that
 * lies below a phone's first screen (the Dashboard's tabs, tables and charts): on a phone's
 * processor, drawing it held up the first screen by about a third of a second. On a desktop the
 * part is in view, and is drawn at the first layout.
 *
 * A screen reader's swipe and a keyboard's Tab scroll the page as they go, so they bring the part
 * near before they reach it.
 */
export function WhenNearViewport({ reserve, children }: { reserve: string; children: ReactNode }) {
  const [near, setNear] = useState(false);
  const placeholder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = placeholder.current;
    if (near || !box) return;
    const observer = new IntersectionObserver((entries) => {
      // In a transition: React draws the part in slices that leave the processor free.
      if (entries.some((entry) => entry.isIntersecting)) startTransition(() => setNear(true));
    }, { rootMargin: AHEAD });
    observer.observe(box);
    return () => observer.disconnect();
  }, [near]);
  return near ? children : <div ref={placeholder} className="when-near-viewport" style={{ minHeight: reserve }} />;
}
