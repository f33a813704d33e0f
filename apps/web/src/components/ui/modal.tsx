import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { cx } from './class-names';
import './ui.css';

/** Spec: focus moves into a modal 100 ms after it opens (lets the opening render settle for screen readers). */
const MODAL_FOCUS_DELAY_MS = 100;

export type ModalCloseReason = 'escape' | 'close-button';

export interface ModalProps {
  open: boolean;
  /** The dialog's heading; it labels the dialog. */
  title: ReactNode;
  children?: ReactNode;
  /** The user asked to close (Escape or the close button). The parent decides and sets open=false. */
  onClose?: (reason: ModalCloseReason) => void;
  /** Escape and the close button close it (default true). A decision the user must make sets false. */
  dismissible?: boolean;
  /** Defaults to dismissible. */
  showCloseButton?: boolean;
  /** Accessible name of the close (X) button (content closeLabel). */
  closeLabel?: string;
  /** alertdialog for an urgent interruption, such as the inactivity warning. */
  role?: 'dialog' | 'alertdialog';
  /** Id of the text that describes the dialog (read when it opens). */
  describedBy?: string;
  /** Element to focus on open; otherwise the dialog itself, so its title and description are read. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  focusDelayMs?: number;
  className?: string;
}

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  'iframe',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hidden && el.closest('[inert]') === null,
  );
}

/**
 * An accessible modal dialog, rendered at the end of body: role dialog with aria-modal, labelled by its
 * heading. While open the rest of the page is inert (unreachable by keyboard, pointer and screen reader),
 * Tab and Shift+Tab cycle inside it, Escape closes it when allowed, and on close focus returns to the
 * element that opened it. Built on a div rather than <dialog> so it behaves the same in every browser
 * and in the jsdom tests.
 */
export function Modal({
  open,
  title,
  children,
  onClose,
  dismissible = true,
  showCloseButton = dismissible,
  closeLabel = 'Close',
  role = 'dialog',
  describedBy,
  initialFocusRef,
  focusDelayMs = MODAL_FOCUS_DELAY_MS,
  className,
}: ModalProps) {
  const titleId = useId();
  const overlayRef = useRef<HTMLDivElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const initialFocus = useRef(initialFocusRef);
  useEffect(() => {
    initialFocus.current = initialFocusRef;
  });

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const overlay = overlayRef.current;

    // Everything else on the page becomes inert; only what this modal changed is restored.
    const madeInert: Element[] = [];
    for (const sibling of Array.from(document.body.children)) {
      if (sibling === overlay || sibling.hasAttribute('inert')) continue;
      sibling.setAttribute('inert', '');
      madeInert.push(sibling);
    }
    document.documentElement.classList.add('ui-modal-open');

    const timer = setTimeout(() => {
      // Someone already working inside the modal (a click, a tap, typing) keeps their place.
      const active = document.activeElement;
      if (active && active !== dialogRef.current && dialogRef.current?.contains(active)) return;
      (initialFocus.current?.current ?? dialogRef.current)?.focus();
    }, focusDelayMs);

    // Focus that escapes (a screen reader's virtual cursor, a browser without inert) is brought back.
    const onFocusIn = (event: FocusEvent) => {
      const dialog = dialogRef.current;
      if (
        dialog &&
        event.target instanceof Node &&
        !dialog.contains(event.target) &&
        !overlay?.contains(event.target)
      ) {
        dialog.focus();
      }
    };
    document.addEventListener('focusin', onFocusIn);

    return () => {
      clearTimeout(timer);
      document.removeEventListener('focusin', onFocusIn);
      for (const element of madeInert) element.removeAttribute('inert');
      if (!document.querySelector('.ui-modal-overlay'))
        document.documentElement.classList.remove('ui-modal-open');
      if (opener?.isConnected) opener.focus();
    };
  }, [open, focusDelayMs]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      if (dismissible) {
        event.stopPropagation();
        onClose?.('escape');
      }
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const items = focusableIn(dialogRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="ui-modal-overlay" ref={overlayRef}>
      <div
        ref={dialogRef}
        className={cx('ui-modal', className)}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="ui-modal__header">
          <h2 className="ui-modal__title" id={titleId}>
            {title}
          </h2>
          {showCloseButton ? (
            <button
              type="button"
              className="ui-modal__close"
              aria-label={closeLabel}
              onClick={() => onClose?.('close-button')}
            >
              <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                <path d="M4 4l12 12M16 4L4 16" stroke="currentColor" strokeWidth="2.5" fill="none" />
              </svg>
            </button>
          ) : null}
        </div>
        <div className="ui-modal__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
