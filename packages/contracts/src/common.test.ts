import { describe, expect, it } from 'vitest';
import { buildPath } from './call';
import {
  customerParams,
  emptyBody,
  externalUrl,
  idParam,
  idParams,
  isoDate,
  isoDateTime,
  money,
  opaqueId,
  pageOf,
  paginationQuery,
} from './common';
import { z } from 'zod/mini';

describe('customer id', () => {
  it('accepts the insurer format C and seven digits', () => {
    expect(customerParams.parse({ customerId: 'C1000001' })).toEqual({ customerId: 'C1000001' });
  });

  it.each(['c1000001', 'C100000', 'C10000011', '1000001', 'C1000001 ', '../C1000001', ''])(
    'refuses %j',
    (customerId) => {
      expect(customerParams.safeParse({ customerId }).success).toBe(false);
    },
  );

  it('refuses unknown path parameters', () => {
    expect(customerParams.safeParse({ customerId: 'C1000001', other: 'x' }).success).toBe(false);
  });
});

describe('pagination query', () => {
  it('defaults to the first page of 10', () => {
    expect(paginationQuery.parse({})).toEqual({ page: 1, pageSize: 10 });
  });

  it('reads query string values as numbers', () => {
    expect(paginationQuery.parse({ page: '3', pageSize: '25' })).toEqual({ page: 3, pageSize: 25 });
  });

  it('accepts the bounds page 1 and page sizes 1 and 50', () => {
    expect(paginationQuery.parse({ page: '1', pageSize: '1' })).toEqual({ page: 1, pageSize: 1 });
    expect(paginationQuery.parse({ page: 1, pageSize: 50 })).toEqual({ page: 1, pageSize: 50 });
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: 'two' }, 'page'],
    [{ page: '' }, 'page'],
    [{ pageSize: '0' }, 'pageSize'],
    [{ pageSize: '51' }, 'pageSize'],
    [{ pageSize: '10abc' }, 'pageSize'],
  ])('refuses %j, naming %s', (query, field) => {
    const result = paginationQuery.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it('ignores unrelated query keys such as a cache buster', () => {
    expect(paginationQuery.parse({ page: '2', _: '1712345678' })).toEqual({ page: 2, pageSize: 10 });
  });
});

describe('money', () => {
  it('accepts pounds with up to two decimals, and zero', () => {
    expect(money.parse({ visible: true, value: 612.4 })).toEqual({ visible: true, value: 612.4 });
    expect(money.parse({ visible: true, value: 845.75 }).value).toBe(845.75);
    expect(money.parse({ visible: false, value: 0 }).value).toBe(0);
  });

  it('refuses negative amounts, fractions of a penny and a missing flag', () => {
    expect(money.safeParse({ visible: true, value: -1 }).success).toBe(false);
    expect(money.safeParse({ visible: true, value: 1.005 }).success).toBe(false);
    expect(money.safeParse({ value: 10 }).success).toBe(false);
  });
});

describe('dates', () => {
  it('accepts calendar dates and zoned instants only', () => {
    expect(isoDate.safeParse('2026-03-01').success).toBe(true);
    expect(isoDate.safeParse('2026-02-30').success).toBe(false);
    expect(isoDate.safeParse('01/03/2026').success).toBe(false);
    expect(isoDateTime.safeParse('2024-03-03T14:05:00Z').success).toBe(true);
    expect(isoDateTime.safeParse('2024-03-03T14:05:00+01:00').success).toBe(true);
    expect(isoDateTime.safeParse('2024-03-03T14:05:00').success).toBe(false);
  });
});

describe('ids and links', () => {
  it('keeps opaque ids free of separators and dot segments', () => {
    expect(opaqueId.safeParse('doc_2026-03-01').success).toBe(true);
    for (const bad of ['..', 'a/b', 'a\\b', 'a.b', '', 'x'.repeat(65), 'a b']) {
      expect(opaqueId.safeParse(bad).success).toBe(false);
    }
  });

  it('builds params schemas with the customer id and named ids', () => {
    const both = idParams({ docId: opaqueId });
    expect(both.parse({ customerId: 'C1000001', docId: 'BILL-1' })).toEqual({
      customerId: 'C1000001',
      docId: 'BILL-1',
    });
    expect(both.safeParse({ customerId: 'C1000001', docId: '../etc' }).success).toBe(false);
    expect(both.safeParse({ customerId: 'nope', docId: 'BILL-1' }).success).toBe(false);
    const one = idParam('clientKey');
    expect(one.parse({ clientKey: 'sdk-1' })).toEqual({ clientKey: 'sdk-1' });
    expect(one.safeParse({ clientKey: 'a/b' }).success).toBe(false);
    const custom = idParam('n', z.string().check(z.regex(/^\d+$/)));
    expect(custom.safeParse({ n: '12' }).success).toBe(true);
    expect(custom.safeParse({ n: 'x' }).success).toBe(false);
  });

  it('allows only http and https links', () => {
    expect(externalUrl.safeParse('https://policies.example.co.uk/mta?p=1').success).toBe(true);
    expect(externalUrl.safeParse('javascript:alert(1)').success).toBe(false);
    expect(externalUrl.safeParse('data:text/html,hi').success).toBe(false);
  });

  it('takes no body or an empty object for bodiless calls', () => {
    expect(emptyBody.safeParse(undefined).success).toBe(true);
    expect(emptyBody.safeParse({}).success).toBe(true);
    expect(emptyBody.safeParse({ unexpected: true }).success).toBe(false);
  });
});

describe('pageOf', () => {
  const page = pageOf(z.object({ id: z.string() }));
  it('accepts a page and an empty list', () => {
    expect(
      page.safeParse({ currentPage: 1, lastPage: 2, pageSize: 10, totalRecords: 11, data: [{ id: 'a' }] })
        .success,
    ).toBe(true);
    expect(
      page.safeParse({ currentPage: 1, lastPage: 1, pageSize: 10, totalRecords: 0, data: [] }).success,
    ).toBe(true);
  });
  it('refuses a page size over the maximum', () => {
    expect(
      page.safeParse({ currentPage: 1, lastPage: 1, pageSize: 51, totalRecords: 0, data: [] }).success,
    ).toBe(false);
  });
});

describe('buildPath', () => {
  it('substitutes every parameter, encoded', () => {
    expect(
      buildPath('/api/v1/document/quote/:customerId/:policyId/:docId/:title', {
        customerId: 'C1000001',
        policyId: '102Q45678912',
        docId: 'Q-1',
        title: 'Your quote & schedule',
      }),
    ).toBe('/api/v1/document/quote/C1000001/102Q45678912/Q-1/Your%20quote%20%26%20schedule');
  });

  it('encodes a value that tries to add a path segment', () => {
    expect(buildPath('/api/v1/profile/:customerId', { customerId: '../admin' })).toBe(
      '/api/v1/profile/..%2Fadmin',
    );
  });

  it('fails loudly on a missing parameter', () => {
    expect(() => buildPath('/api/v1/policy/:customerId/:policyId', { customerId: 'C1000001' })).toThrow(
      'Missing path parameter policyId',
    );
  });

  it('leaves a path without parameters alone', () => {
    expect(buildPath('/api/v1/agency/mutual-direct')).toBe('/api/v1/agency/mutual-direct');
  });
});
