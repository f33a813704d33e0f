import { useEffect, useState } from 'react';

/**
 * True while the page is being scrolled down past `offset` px, false again as soon as it scrolls up
 * (spec: the header hides by 82 px on scroll). One reading per animation frame.
 */
export function useHideOnScroll(offset: number): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let lastY = window.scrollY;
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = window.requestAnimationFrame(() => {
        frame = 0;
        const y = Math.max(0, window.scrollY);
        if (y > lastY && y > offset) setHidden(true);
        else if (y < lastY || y <= offset) setHidden(false);
        lastY = y;
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [offset]);
  return hidden;
}
