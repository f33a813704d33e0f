/*
 * Whether a mouse or pen button is held down on the page, and a way to do something once it is released.
 *
 * A field shows its error when the customer leaves it, and the error pushes everything below it down. When
 * the customer leaves the field by pressing a button below it (Continue, Send, Show password), the press
 * moves focus first: the error appears and the button slides away before the release, and a click needs
 * the press and the release on the same element, so the click is lost. Changes caused by a press therefore
 * wait until the pointer is released and its click has run. Touch is left alone: a tap is one gesture
 * whose target is chosen before focus moves.
 */

let pressed = false;
let tracking = false;
const waiting = new Set<() => void>();

function runWaiting(): void {
  const tasks = [...waiting];
  waiting.clear();
  for (const task of tasks) task();
}

function release(): void {
  if (!pressed) return;
  pressed = false;
  // After the click the release makes (it is dispatched in the same task as the release).
  setTimeout(runWaiting, 0);
}

/** Starts watching presses (once per page; forms call it when they mount). */
export function trackPointerPresses(): void {
  if (tracking || typeof document === 'undefined') return;
  tracking = true;
  document.addEventListener(
    'pointerdown',
    (event) => {
      if (event.pointerType !== 'touch') pressed = true;
    },
    true,
  );
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
  // A release outside the window may never reach the page.
  window.addEventListener('blur', release);
}

/** Runs `task` now, or once the mouse or pen button held down is released. */
export function afterPointerRelease(task: () => void): void {
  if (pressed) waiting.add(task);
  else task();
}
