import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DocumentRow } from './document-row';

const row = (props: Partial<Parameters<typeof DocumentRow>[0]> = {}) => (
  <ul>
    <DocumentRow
      name="Annual statement"
      buttonText="View PDF"
      fileError="<p>Sorry, we could not open this document.</p>"
      onDownload={() => Promise.resolve()}
      newText="New"
      {...props}
    />
  </ul>
);

describe('DocumentRow', () => {
  it('marks a document not opened yet as New, in the row and in its button name, until it is opened', async () => {
    render(row({ isNew: true }));
    expect(screen.getByText('New')).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'View PDF Annual statement (New)' });
    await userEvent.click(button);
    expect(screen.queryByText('New')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View PDF Annual statement' })).toBeInTheDocument();
  });

  it('keeps the mark when the document could not be opened, and shows none for one opened before', async () => {
    const { unmount } = render(row({ isNew: true, onDownload: () => Promise.reject(new Error('no')) }));
    await userEvent.click(screen.getByRole('button', { name: /View PDF/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, we could not open this document.');
    expect(screen.getByText('New')).toBeInTheDocument();
    unmount();
    render(row({ isNew: false }));
    expect(screen.queryByText('New')).not.toBeInTheDocument();
  });
});
