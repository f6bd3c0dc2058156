/**
 * Whether an element has come near the viewport (within `margin` of it), for content below the fold
 * whose code and data can wait until the reader scrolls towards it. Once true it stays true.
 */
import { useEffect, useState } from 'react';
import type { RefObject } from 'react';

/** About a phone's screen ahead: the content is there by the time the reader reaches it. */
const DEFAULT_MARGIN = '800px 0px';

export function useNearViewport(ref: RefObject<Element | null>, margin = DEFAULT_MARGIN): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    // Without the observer (very old browsers) the content simply loads at once.
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, near]);
  return near;
}
