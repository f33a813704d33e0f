import { useRef, useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Modal, type ModalCloseReason } from './modal';

function Harness({
  dismissible = true,
  focusConfirm = false,
}: {
  dismissible?: boolean;
  focusConfirm?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [closedBy, setClosedBy] = useState<ModalCloseReason | 'button' | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Open settings
      </button>
      <a href="/elsewhere">A link behind the modal</a>
      <p>Closed by: {closedBy ?? 'nothing'}</p>
      <Modal
        open={open}
        title="Are you still there?"
        dismissible={dismissible}
        describedBy="modal-text"
        initialFocusRef={focusConfirm ? confirmRef : undefined}
        onClose={(reason) => {
          setClosedBy(reason);
          setOpen(false);
        }}
      >
        <p id="modal-text">You will be signed out soon.</p>
        <button ref={confirmRef} type="button" onClick={() => setOpen(false)}>
          Stay signed in
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Sign out
        </button>
      </Modal>
    </main>
  );
}

async function openModal() {
  const user = userEvent.setup();
  render(<Harness />);
  const opener = screen.getByRole('button', { name: 'Open settings' });
  await user.click(opener);
  const dialog = screen.getByRole('dialog', { name: 'Are you still there?' });
  return { user, opener, dialog };
}

describe('Modal', () => {
  it('is a modal dialog labelled by its heading and described by its text', async () => {
    const { dialog } = await openModal();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAccessibleDescription('You will be signed out soon.');
  });

  it('moves focus into the dialog after 100 ms, not at once', () => {
    vi.useFakeTimers();
    try {
      render(<Harness />);
      const opener = screen.getByRole('button', { name: 'Open settings' });
      opener.focus();
      fireEvent.click(opener);
      const dialog = screen.getByRole('dialog');
      act(() => {
        vi.advanceTimersByTime(99);
      });
      expect(opener).toHaveFocus();
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(dialog).toHaveFocus();
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves focus where it is when the user reached something inside the dialog within those 100 ms', () => {
    vi.useFakeTimers();
    try {
      render(<Harness />);
      fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
      const stay = screen.getByRole('button', { name: 'Stay signed in' });
      act(() => {
        vi.advanceTimersByTime(50);
      });
      stay.focus();
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(stay).toHaveFocus();
    } finally {
      vi.useRealTimers();
    }
  });

  it('focuses a chosen element when asked', async () => {
    const user = userEvent.setup();
    render(<Harness focusConfirm />);
    await user.click(screen.getByRole('button', { name: 'Open settings' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Stay signed in' })).toHaveFocus());
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { user, dialog } = await openModal();
    await waitFor(() => expect(dialog).toHaveFocus());
    const close = screen.getByRole('button', { name: 'Close' });
    const stay = screen.getByRole('button', { name: 'Stay signed in' });
    const signOut = screen.getByRole('button', { name: 'Sign out' });
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab();
    expect(stay).toHaveFocus();
    await user.tab();
    expect(signOut).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(signOut).toHaveFocus();
  });

  it('makes the page behind it inert while open and restores it after', async () => {
    const { user, dialog } = await openModal();
    const behind = screen.getByRole('link', { name: 'A link behind the modal' });
    expect(behind.closest('[inert]')).not.toBeNull();
    expect(dialog.closest('[inert]')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(behind.closest('[inert]')).toBeNull();
  });

  it('brings focus back if it escapes to the page behind', async () => {
    const { dialog } = await openModal();
    await waitFor(() => expect(dialog).toHaveFocus());
    screen.getByRole('link', { name: 'A link behind the modal' }).focus();
    expect(dialog).toHaveFocus();
  });

  it('closes on Escape and returns focus to the opener', async () => {
    const { user, opener, dialog } = await openModal();
    await waitFor(() => expect(dialog).toHaveFocus());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Closed by: escape')).toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('closes with its close button and returns focus to the opener', async () => {
    const { user, opener } = await openModal();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText('Closed by: close-button')).toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('ignores Escape and has no close button when the user must choose', async () => {
    const user = userEvent.setup();
    render(<Harness dismissible={false} />);
    await user.click(screen.getByRole('button', { name: 'Open settings' }));
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(dialog).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
