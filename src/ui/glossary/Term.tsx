/**
 * A Kafka term on screen with its glossary popover: a focusable button around the visible text
 * (the text stays exactly as before) that shows the definition on hover and on keyboard focus,
 * hides it on Escape, blur or leaving, and points at it with aria-describedby. The popover is
 * portalled to <body> and exists only while open, so a card's text content never includes it.
 *
 * Hand-rolled rather than @floating-ui or Radix: one fixed-position box under (or above) the term
 * is all the board needs, and no new dependency has to be vetted for it.
 */
import { memo, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { TERMS, type TermName } from './terms';

/** Leaving the term waits this long, so the pointer can move onto the popover (WCAG 1.4.13, hoverable). */
const CLOSE_DELAY_MS = 120;
const WIDTH = 280;
const GAP = 6;

/** The one open popover's close: opening another closes it, so hover and focus never show two. */
let closeOpen: (() => void) | null = null;

interface Place {
  left: number;
  top: number;
  above: boolean;
}

function placeUnder(el: HTMLElement): Place {
  const r = el.getBoundingClientRect();
  const left = Math.max(GAP, Math.min(r.left, window.innerWidth - WIDTH - GAP));
  // Flip above when the lower part of the window has no room for a few lines.
  const above = r.bottom + 140 > window.innerHeight && r.top > 140;
  return { left, top: above ? r.top - GAP : r.bottom + GAP, above };
}

/**
 * Memoized: a card re-rendered by a new view passes the same name and words, and the board draws
 * thousands of terms at scale.
 */
export const Term = memo(function Term({
  name,
  children,
  className,
}: {
  name: TermName;
  children?: ReactNode;
  className?: string;
}) {
  const entry = TERMS[name];
  const id = useId();
  const ref = useRef<HTMLButtonElement>(null);
  const [place, setPlace] = useState<Place | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  const close = useCallback(() => {
    cancelClose();
    setPlace(null);
  }, [cancelClose]);
  const open = useCallback(() => {
    cancelClose();
    if (closeOpen !== close) closeOpen?.();
    closeOpen = close;
    if (ref.current) setPlace(placeUnder(ref.current));
  }, [cancelClose, close]);
  const closeSoon = useCallback(() => {
    cancelClose();
    timer.current = setTimeout(close, CLOSE_DELAY_MS);
  }, [cancelClose, close]);

  const shown = place !== null;
  useEffect(() => {
    if (!shown) return;
    // Escape dismisses from anywhere (the pointer may hover while focus is elsewhere); a scroll or
    // resize moves the term, and the popover follows it (a followed log scrolls on its own).
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    // Functional update: a scroll that lands after close() (another term opened) must not reopen it.
    const follow = () => {
      setPlace((p) => (p && ref.current ? placeUnder(ref.current) : p));
    };
    document.addEventListener('keydown', onKey);
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [shown, close]);
  useEffect(
    () => () => {
      cancelClose();
      if (closeOpen === close) closeOpen = null;
    },
    [cancelClose, close],
  );

  const tipId = `term-tip-${id}`;
  return (
    <>
      <button
        ref={ref}
        type="button"
        className={`term${className ? ` ${className}` : ''}`}
        data-term={name}
        aria-describedby={shown ? tipId : undefined}
        onPointerEnter={open}
        onPointerLeave={closeSoon}
        onFocus={open}
        onBlur={close}
      >
        {children ?? name}
      </button>
      {place &&
        createPortal(
          <div
            id={tipId}
            role="tooltip"
            className={`term-tip${place.above ? ' above' : ''}`}
            data-testid="term-tooltip"
            data-term={name}
            style={{ left: place.left, top: place.top, width: WIDTH }}
            onPointerEnter={cancelClose}
            onPointerLeave={closeSoon}
          >
            <strong className="term-tip-name">{name}</strong> {entry.definition}
            {'kafkaName' in entry && <code className="term-tip-kafka">{entry.kafkaName}</code>}
          </div>,
          document.body,
        )}
    </>
  );
});
