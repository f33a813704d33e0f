import {
  getAgencyCall,
  getAgencyWithFallbackCall,
  getMutualDirectAgencyCall,
  listPoliciesCall,
  listQuotesCall,
} from '@portal/contracts/policy';
import { getProfileCall } from '@portal/contracts/profile';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../session/query-client';
import { fakeApi, fakeCall } from '../../test/fake-api/fake-api';
import { signedInAs } from '../../test/signed-in';
import { prefetchUserData, useUserData } from './user-data';

function Probe() {
  const { data } = useUserData(1);
  if (!data) return <p>loading</p>;
  return <p>{data.profile ? `profile of ${data.profile.firstName}` : 'no profile'}</p>;
}

const profile = {
  firstName: 'Helen',
  lastName: 'Dawson',
  dateOfBirthFormatted: '22/08/1968',
  addressLineOne: '1 Hill Road',
  addressLineTwo: '',
  addressLineThree: '',
  town: 'Shrewsbury',
  county: 'Shropshire',
  postCode: 'SY5 8AB',
  emailAddress: 'helen.dawson@example.co.uk',
  mobileNumber: '07700900333',
  landlineNumber: null,
  passwordLastUpdated: null,
};

const show = (queryClient = createQueryClient()) =>
  render(
    <QueryClientProvider client={queryClient}>
      <Probe />
    </QueryClientProvider>,
  );

describe('user data (spec customer-data §7, §9)', () => {
  let signOut: () => void;
  beforeEach(() => {
    signOut = signedInAs('C1000007');
  });
  afterEach(() => signOut());

  it('keeps complete user data in session storage for the cache lifetime', async () => {
    fakeApi.use(
      fakeCall(getProfileCall, () => ({ status: 200, body: profile })),
      fakeCall(listPoliciesCall, () => ({
        status: 200,
        body: {
          active: [],
          renewing: [],
          upcoming: [],
          expired: [],
          currentPage: 1,
          lastPage: 1,
          totalRecords: 0,
        },
      })),
      fakeCall(listQuotesCall, () => ({ status: 200, body: [] })),
    );
    show();
    expect(await screen.findByText('profile of Helen')).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem('userData') ?? 'null')).toMatchObject({
      customerId: 'C1000007',
    });
  });

  it('does not keep it when a call failed, so the next page load asks again', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 502 })));
    show();
    expect(await screen.findByText('no profile')).toBeInTheDocument();
    expect(sessionStorage.getItem('userData')).toBeNull();
  });

  it('started by the route loader before the page, the read is the one the page shows: no second read', async () => {
    let profileReads = 0;
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    fakeApi.use(
      fakeCall(getProfileCall, async () => {
        profileReads += 1;
        await answered;
        return { status: 200, body: profile };
      }),
    );
    const queryClient = createQueryClient();
    prefetchUserData('C1000007', 1, queryClient);
    await vi.waitFor(() => expect(profileReads).toBe(1));
    show(queryClient);
    expect(screen.getByText('loading')).toBeInTheDocument();
    answer();
    expect(await screen.findByText('profile of Helen')).toBeInTheDocument();
    expect(profileReads).toBe(1);
  });

  it('gives no profile, empty policy lists and null for the rest when every call fails (spec §7)', async () => {
    fakeApi.use(
      fakeCall(getProfileCall, () => ({ status: 502 })),
      fakeCall(listPoliciesCall, () => ({ status: 502 })),
      fakeCall(listQuotesCall, () => ({ status: 502 })),
      fakeCall(getAgencyCall, () => ({ status: 502 })),
      fakeCall(getAgencyWithFallbackCall, () => ({ status: 502 })),
      fakeCall(getMutualDirectAgencyCall, () => ({ status: 502 })),
    );
    function Capture() {
      const { data } = useUserData(1);
      return data ? <pre>{JSON.stringify(data)}</pre> : <p>loading</p>;
    }
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Capture />
      </QueryClientProvider>,
    );
    const seen: unknown = JSON.parse((await screen.findByText(/^\{/)).textContent ?? 'null');
    expect(seen).toMatchObject({
      email: null,
      profile: null,
      policies: { active: [], renewing: [], upcoming: [], expired: [] },
      policiesFailed: true,
      quotes: null,
      agency: null,
      agencyWithFallback: null,
      agencyForMutualDirect: null,
    });
  });

  it('reads stored data while it is younger than userCacheTTL, and again once it is older', async () => {
    let profileReads = 0;
    fakeApi.use(
      fakeCall(getProfileCall, () => {
        profileReads += 1;
        return { status: 200, body: { ...profile, firstName: 'Fresh' } };
      }),
    );
    const stored = (ageMs: number) =>
      sessionStorage.setItem(
        'userData',
        JSON.stringify({
          customerId: 'C1000007',
          savedAt: Date.now() - ageMs,
          data: {
            email: profile.emailAddress,
            profile,
            policies: { active: [], renewing: [], upcoming: [], expired: [] },
            policiesFailed: false,
            quotes: [],
            agency: null,
            agencyWithFallback: null,
            agencyForMutualDirect: null,
          },
        }),
      );

    stored(30_000);
    const first = show();
    expect(await screen.findByText('profile of Helen')).toBeInTheDocument();
    expect(profileReads).toBe(0);
    first.unmount();

    stored(61_000);
    show();
    expect(await screen.findByText('profile of Fresh')).toBeInTheDocument();
    expect(profileReads).toBe(1);
  });

  it('keeps nothing in session storage when userCacheTTL is 0', async () => {
    fakeApi.use(fakeCall(getProfileCall, () => ({ status: 200, body: profile })));
    function NoCache() {
      const { data } = useUserData(0);
      return <p>{data?.profile ? `profile of ${data.profile.firstName}` : 'loading'}</p>;
    }
    render(
      <QueryClientProvider client={createQueryClient()}>
        <NoCache />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('profile of Helen')).toBeInTheDocument();
    expect(sessionStorage.getItem('userData')).toBeNull();
  });
});
