import type { BlockOf } from '@portal/contracts/content';
import { getPolicyCall, type LineOfBusiness, type Policy, type Valuable } from '@portal/contracts/policy';
import { QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../session/query-client';
import { fakeApi, fakeCall } from '../../../test/fake-api/fake-api';
import { renderWithRoot } from '../../../test/render-with-root';
import { signedInAs } from '../../../test/signed-in';
import { testPolicy } from '../../../test/policy-fixtures';
import PolicyCoverBlock from './policy-cover';

const block = {
  id: 'policy-cover',
  type: 'policyCoverInsert',
  labels: { valuables: 'Valuables', artType: 'Type of art' },
  tooManyItemsMessage: 'Only your first 20 items are shown: your schedule lists them all.',
  maxItems: 20,
  unknownArtTypeLabel: 'Unspecified Other Fine Art',
  errorText: '<p>Sorry, we cannot show your cover at the moment.</p>',
} as BlockOf<'policyCoverInsert'>;

const FALLBACK = 'For a full list of your valuables please see your documents';

const valuable = (n: number, overrides: Partial<Valuable> = {}): Valuable => ({
  category: 'Jewellery',
  description: `Item ${n}`,
  value: { visible: true, value: 1000 + n },
  replacementCost: null,
  type: null,
  make: null,
  artType: null,
  collectionType: null,
  singleItemLimit: null,
  sumInsured: null,
  ...overrides,
});

const line = (type: string, overrides: Partial<LineOfBusiness> = {}): LineOfBusiness => ({
  type,
  coverLevel: null,
  risks: [{ displayName: `${type} risk`, registration: null, covers: [{ type: 'All risks' }] }],
  valuables: [],
  bicycles: [],
  ...overrides,
});

function show(policy: Policy, content: BlockOf<'policyCoverInsert'> = block) {
  fakeApi.use(fakeCall(getPolicyCall, () => ({ status: 200, body: policy })));
  return renderWithRoot(
    <QueryClientProvider client={createQueryClient()}>
      <h1>What you are covered for</h1>
      <PolicyCoverBlock block={content} />
    </QueryClientProvider>,
    { path: `/account/policies/cover?id=${policy.policyNumber}` },
  );
}

// The block has no heading of its own here, as on the cover page: the accordions' headings follow the h1.
const accordionHeadings = () =>
  screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

/** The heading levels in document order, from the page's h1 down. */
const headingLevels = () => screen.getAllByRole('heading').map((heading) => Number(heading.tagName.slice(1)));

describe('policy cover (spec customer-data §2, §8, §9)', () => {
  let signOut: () => void;
  let errors: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
    errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    signOut();
    vi.restoreAllMocks();
  });

  it.each([
    ['PHL', ['Valuables', 'Home'], ['Home cover: buildings and contents', 'Valuables away from home']],
    ['PAH', ['Valuables', 'Home'], ['Home cover', 'Personal possessions']],
    ['PHR', ['Home'], ['Home cover: buildings and contents (renewal terms)']],
    ['NGH', ['Home'], ['Home cover: buildings and contents']],
    ['NGB', ['FineArt'], ['Fine art and collectables']],
    ['MPC', ['Motor'], ['Private car cover']],
    ['LEX', ['LegalExpenses'], ['Legal expenses']],
  ])('labels the cover of %s with its own names, the Home line first', async (productType, types, labels) => {
    show(testPolicy({ productType, linesOfBusiness: types.map((type) => line(type)) }));
    await screen.findByText(`${types[0]} risk`);
    expect(accordionHeadings()).toEqual(labels);
    expect(errors).not.toHaveBeenCalled();
  });

  it('lists at most 20 valuables, then the warning from content', async () => {
    const items = Array.from({ length: 25 }, (_, i) => valuable(i + 1));
    show(testPolicy({ linesOfBusiness: [line('Valuables', { risks: [], valuables: items })] }));
    expect(await screen.findByText('Item 1')).toBeInTheDocument();
    expect(screen.getByText('Item 20')).toBeInTheDocument();
    expect(screen.queryByText('Item 21')).not.toBeInTheDocument();
    expect(screen.getByText(block.tooManyItemsMessage!)).toBeInTheDocument();
    expect(screen.queryByText(FALLBACK)).not.toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
  });

  it('falls back to the spec text, and logs an error, when content has no warning for too many items', async () => {
    const items = Array.from({ length: 21 }, (_, i) => valuable(i + 1));
    const { tooManyItemsMessage: _unset, ...withoutWarning } = block;
    show(
      testPolicy({ linesOfBusiness: [line('Valuables', { risks: [], valuables: items })] }),
      withoutWarning,
    );
    expect(await screen.findByText(FALLBACK)).toBeInTheDocument();
    expect(screen.queryByText('Item 21')).not.toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('no tooManyItemsMessage configured'));
  });

  it('shows no warning and logs nothing with 20 items or fewer', async () => {
    const items = Array.from({ length: 20 }, (_, i) => valuable(i + 1));
    const { tooManyItemsMessage: _unset, ...withoutWarning } = block;
    show(
      testPolicy({ linesOfBusiness: [line('Valuables', { risks: [], valuables: items })] }),
      withoutWarning,
    );
    expect(await screen.findByText('Item 20')).toBeInTheDocument();
    expect(screen.queryByText(FALLBACK)).not.toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
  });

  it('labels an art type it does not know as "Unspecified Other Fine Art"', async () => {
    const art = [
      valuable(1, { category: 'Fine art', description: 'Landscape', artType: 'Paintings' }),
      valuable(2, { category: 'Fine art', description: 'Netsuke', artType: 'NTSK' }),
    ];
    show(testPolicy({ productType: 'NGB', linesOfBusiness: [line('FineArt', { valuables: art })] }));
    const known = (await screen.findByText('Landscape')).closest('li')!;
    expect(within(known).getByText('Paintings')).toBeInTheDocument();
    const unknown = screen.getByText('Netsuke').closest('li')!;
    expect(within(unknown).getByText('Unspecified Other Fine Art')).toBeInTheDocument();
    expect(within(unknown).queryByText('NTSK')).not.toBeInTheDocument();
  });

  it('renders nothing for a cover structure it does not expect, and logs an error', async () => {
    show(
      testPolicy({
        linesOfBusiness: [line('Home'), line('Mystery', { risks: [], valuables: [], bicycles: [] })],
      }),
    );
    await screen.findByText('Home risk');
    expect(accordionHeadings()).toEqual(['Home cover: buildings and contents']);
    expect(screen.queryByText(/Mystery/)).not.toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('unexpected data for line Mystery'));
  });

  it('skips no heading level after the page’s h1, with or without a block heading (WCAG 1.3.1)', async () => {
    const policy = testPolicy({
      linesOfBusiness: [line('Home'), line('Valuables', { risks: [], valuables: [valuable(1)] })],
    });
    show(policy);
    await screen.findByText('Home risk');
    expect(headingLevels()).toEqual([1, 2, 3, 2, 3]);
  });

  it('keeps one level below a block heading', async () => {
    show(testPolicy({ linesOfBusiness: [line('Home')] }), { ...block, heading: 'Your cover' });
    await screen.findByText('Home risk');
    expect(headingLevels()).toEqual([1, 2, 3, 4]);
  });

  it('draws an expand or collapse indicator that follows the native disclosure', async () => {
    show(testPolicy({ linesOfBusiness: [line('Home'), line('Motor')] }));
    const home = (await screen.findByRole('heading', { name: 'Home cover: buildings and contents' })).closest(
      'details',
    )!;
    const summary = home.querySelector('summary')!;
    expect(home).not.toHaveAttribute('open');
    expect(summary).toHaveTextContent('Show details');
    await userEvent.click(summary);
    expect(home).toHaveAttribute('open');
    expect(summary).toHaveTextContent('Hide details');
    await userEvent.click(summary);
    expect(summary).toHaveTextContent('Show details');
  });
});
