import { describe, expect, it } from 'vitest';
import { assignVariant, bucket, getExperimentUserId } from './experiments';

const variants = [
  { id: 'control', weight: 0.5 },
  { id: 'reassurance', weight: 0.5 },
];

describe('experiments', () => {
  it('keeps one random experiment user id in local storage', () => {
    const id = getExperimentUserId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(localStorage.getItem('experimentUserId')).toBe(id);
    expect(getExperimentUserId()).toBe(id);
  });

  it('takes the id the server rendered the page for when it has none stored, and keeps the cookie in step', () => {
    localStorage.removeItem('experimentUserId');
    const serverId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    document.cookie = `experimentUserId=${serverId}; Path=/`;
    expect(getExperimentUserId()).toBe(serverId);
    expect(localStorage.getItem('experimentUserId')).toBe(serverId);

    const storedId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    localStorage.setItem('experimentUserId', storedId);
    expect(getExperimentUserId()).toBe(storedId);
    expect(document.cookie).toContain(`experimentUserId=${storedId}`);
  });

  it('gives the same user the same variant every time', () => {
    const first = assignVariant('login-intro-variant', variants, 'user-1');
    for (let i = 0; i < 5; i += 1)
      expect(assignVariant('login-intro-variant', variants, 'user-1')).toBe(first);
  });

  it('splits users by weight', () => {
    const counts = { control: 0, reassurance: 0 };
    for (let i = 0; i < 4000; i += 1) {
      const v = assignVariant('login-intro-variant', variants, `user-${i}`)!;
      counts[v.id as keyof typeof counts] += 1;
    }
    expect(counts.control / 4000).toBeGreaterThan(0.45);
    expect(counts.control / 4000).toBeLessThan(0.55);
    const lopsided = [
      { id: 'a', weight: 0.9 },
      { id: 'b', weight: 0.1 },
    ];
    let a = 0;
    for (let i = 0; i < 4000; i += 1) if (assignVariant('x', lopsided, `u${i}`)!.id === 'a') a += 1;
    expect(a / 4000).toBeGreaterThan(0.86);
    expect(a / 4000).toBeLessThan(0.94);
  });

  it('handles no variants and zero weights', () => {
    expect(assignVariant('x', [], 'u')).toBeUndefined();
    expect(
      assignVariant(
        'x',
        [
          { id: 'only', weight: 0 },
          { id: 'other', weight: 0 },
        ],
        'u',
      )!.id,
    ).toBe('only');
    expect(bucket('x', 'u')).toBeGreaterThanOrEqual(0);
    expect(bucket('x', 'u')).toBeLessThan(1);
  });
});
