import { useEffect, useLayoutEffect, useRef } from 'react';
import { TabView, type TabViewProps } from 'primereact/tabview';

/**
 * PrimeReact's TabView for a page's tabs. When it mounts, TabView scrolls its selected tab into
 * view (meant for the tab strip's own sideways scroll), which also scrolls the page: a home on a
 * phone opened at its tab bar, below the work panels, instead of at the top. This keeps the page
 * where it was: the position is read before TabView's mount effect and put back after it.
 */
export function PageTabView(props: TabViewProps) {
  const pageY = useRef(0);
  useLayoutEffect(() => {
    pageY.current = window.scrollY;
  }, []);
  useEffect(() => {
    if (window.scrollY !== pageY.current) window.scrollTo(window.scrollX, pageY.current);
  }, []);
  return <TabView {...props} />;
}
