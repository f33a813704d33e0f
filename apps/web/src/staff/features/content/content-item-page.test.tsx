import {
  getContentItemCall,
  publishContentCall,
  saveContentDraftCall,
  type ContentItemDetail,
} from '@portal/contracts/staff-content';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { CSRF, renderConsole } from '../../testing/console';

const editor = { name: 'Sam Carter', roles: ['editor' as const] };
const publisher = { name: 'Jo Hughes', roles: ['publisher' as const] };

const alertItem = (overrides: Partial<ContentItemDetail> = {}): ContentItemDetail => ({
  id: 'service-alert',
  kind: 'service-alert',
  title: 'Service alert',
  version: 1,
  body: { visible: false, title: 'Planned maintenance', message: '<p>Sunday 1am to 5am.</p>' },
  draft: null,
  fileDiffers: null,
  history: [
    {
      version: 1,
      published: { name: 'Content files', at: '2026-12-07T09:00:00.000Z' },
      source: 'file',
      editedBy: null,
      reason: null,
      restoredVersion: null,
      changes: [],
    },
  ],
  previewPaths: ['/login'],
  ...overrides,
});

describe('a content item in the console', () => {
  it('gives an editor a form made from the item, and shows the server’s refusal at the field', async () => {
    fakeApi.use(
      fakeCall(getContentItemCall, () => ({ status: 200, body: alertItem() })),
      fakeCall(saveContentDraftCall, () => ({
        status: 422,
        body: {
          code: 'CONTENT_INVALID',
          message: 'This change cannot be saved: message: Rich text: tag <script> is not allowed',
          fieldErrors: { message: 'Rich text: tag <script> is not allowed' },
          correlationId: 'c-1',
        },
      })),
    );
    const { user } = renderConsole('/content/service-alert', { who: editor });
    await screen.findByRole('heading', { level: 1, name: 'Service alert' });
    await user.click(screen.getByRole('checkbox', { name: 'Visible' }));
    const message = screen.getByRole('textbox', { name: 'Message' });
    await user.clear(message);
    await user.type(message, '<p>Lines down<script>x</script></p>');
    await user.click(screen.getByRole('button', { name: 'Save and submit for publishing' }));

    const summary = await screen.findByRole('alert');
    expect(summary).toHaveTextContent('message: Rich text: tag <script> is not allowed');
    expect(message).toHaveAccessibleDescription(/tag <script> is not allowed/);
    const [sent] = callsTo(saveContentDraftCall);
    expect(sent?.headers.get('X-CSRF-Token')).toBe(CSRF);
    expect(sent?.body).toEqual({
      body: { visible: true, title: 'Planned maintenance', message: '<p>Lines down<script>x</script></p>' },
      baseVersion: 1,
      submit: true,
    });
    // An editor has no publishing.
    expect(screen.queryByRole('button', { name: 'Publish this change' })).toBeNull();
  });

  it('lets a publisher publish a submitted change and says which version is live', async () => {
    const draft = {
      state: 'submitted' as const,
      body: { visible: true, title: 'Planned maintenance', message: '<p>Lines down.</p>' },
      baseVersion: 1,
      editedBy: 'Sam Carter',
      at: '2026-12-07T10:00:00.000Z',
      changes: [{ path: 'message', before: '<p>Sunday 1am to 5am.</p>', after: '<p>Lines down.</p>' }],
      mayPublish: true,
    };
    fakeApi.use(
      fakeCall(getContentItemCall, () => ({ status: 200, body: alertItem({ draft }) })),
      fakeCall(publishContentCall, () => ({
        status: 200,
        body: alertItem({ version: 2, body: draft.body }),
      })),
    );
    const { user } = renderConsole('/content/service-alert', { who: publisher });
    await screen.findByText(/Submitted for publishing by Sam Carter/);
    const changes = screen.getByRole('table', { name: 'What the draft changes' });
    expect(within(changes).getByRole('rowheader', { name: 'message' })).toBeInTheDocument();
    // A publisher does not edit.
    expect(screen.queryByRole('button', { name: 'Save and submit for publishing' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'INC-1');
    await user.click(screen.getByRole('button', { name: 'Publish this change' }));
    expect(await screen.findByText(/Published as version 2\./)).toBeInTheDocument();
    expect(callsTo(publishContentCall)[0]?.body).toEqual({ baseVersion: 1, reason: 'INC-1' });
  });
});
