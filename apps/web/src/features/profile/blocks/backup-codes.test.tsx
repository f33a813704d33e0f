import type { BlockOf } from '@portal/contracts/content';
import {
  createBackupCodesCall,
  listSignInMethodsCall,
  type SignInMethod,
} from '@portal/contracts/sign-in-methods';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import content from '../../../../../../content/pages/profile-login-security.json';
import { createQueryClient } from '../../../session/query-client';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import BackupCodesBlock, { backupCodesFile } from './backup-codes';

const block = content.blocks.find((b) => b.type === 'backupCodes') as unknown as BlockOf<'backupCodes'>;
const codes = Array.from({ length: 10 }, (_, i) => `AC${i}D-EF${i}H`);

function fakePortal({ existing = false, createFails = false } = {}) {
  let set: SignInMethod | null = existing
    ? { id: 'bc1', type: 'backup_codes', status: 'ACTIVE', label: 'Backup codes', codesLeft: 7 }
    : null;
  fakeApi.use(
    fakeCall(listSignInMethodsCall, () => ({ status: 200, body: { methods: set ? [set] : [] } })),
    fakeCall(createBackupCodesCall, () => {
      if (createFails) return { status: 404 };
      set = { id: 'bc1', type: 'backup_codes', status: 'ACTIVE', label: 'Backup codes', codesLeft: 10 };
      return { status: 200, body: { id: 'bc1', codes, createdAt: '2026-03-03T10:00:00Z' } };
    }),
  );
}

const render = () =>
  renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <BackupCodesBlock block={block} />
    </QueryClientProvider>,
  );

describe('backup codes block', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000010');
  });
  afterEach(() => signOut());

  it('creates ten codes and shows them once, with print and download, until they are saved', async () => {
    const user = userEvent.setup();
    fakePortal();
    render();
    expect(await screen.findByText('You do not have any backup codes.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create backup codes' }));
    const heading = await screen.findByRole('heading', { name: 'Your backup codes' });
    await waitFor(() => expect(heading).toHaveFocus());
    const list = screen.getByRole('list', { name: 'Your 10 backup codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    expect(screen.getByRole('button', { name: 'Print the codes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download the codes' })).toBeInTheDocument();
    expect(document.documentElement).toHaveClass('printing-backup-codes');

    await user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(screen.queryByRole('list', { name: 'Your 10 backup codes' })).not.toBeInTheDocument();
    expect(document.documentElement).not.toHaveClass('printing-backup-codes');
    expect(await screen.findByText('You have 10 unused backup codes.')).toBeInTheDocument();
  });

  it('warns that the old codes stop working before making new ones', async () => {
    const user = userEvent.setup();
    fakePortal({ existing: true });
    render();
    expect(await screen.findByText('You have 7 unused backup codes.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create new codes' }));
    const warning = await screen.findByRole('dialog', { name: 'Create new codes' });
    expect(within(warning).getByText(/your old codes stop working/)).toBeInTheDocument();
    await user.click(within(warning).getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    expect(callsTo(createBackupCodesCall)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Create new codes' }));
    const again = await screen.findByRole('dialog', { name: 'Create new codes' });
    await user.click(within(again).getByRole('button', { name: 'Create new codes' }));
    expect(await screen.findByRole('list', { name: 'Your 10 backup codes' })).toBeInTheDocument();
    expect(callsTo(createBackupCodesCall)).toHaveLength(1);
  });

  it('says so when the codes cannot be made', async () => {
    const user = userEvent.setup();
    fakePortal({ createFails: true });
    render();
    await user.click(await screen.findByRole('button', { name: 'Create backup codes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Sorry, we could not create your backup codes.',
    );
  });

  it('downloads a text file saying what the codes are and when they were made', () => {
    const text = backupCodesFile(block, { id: 'bc1', codes, createdAt: '2026-03-03T10:00:00Z' });
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Backup codes for signing in to your insurance account, created on 3 March 2026. Each code works once.',
    );
    expect(lines.slice(2, 12)).toEqual(codes);
  });
});
