import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSession, setAuthenticated, useSession } from './session';

function Status() {
  const { isAuthenticated } = useSession();
  return <p>{isAuthenticated ? 'signed in' : 'signed out'}</p>;
}

describe('session', () => {
  it('reads the authenticated flag of session storage (1 or 0)', () => {
    expect(getSession().isAuthenticated).toBe(false);
    sessionStorage.setItem('authenticated', '1');
    expect(getSession().isAuthenticated).toBe(true);
    sessionStorage.setItem('authenticated', '0');
    expect(getSession().isAuthenticated).toBe(false);
  });

  it('tells components when the state changes', () => {
    render(<Status />);
    expect(screen.getByText('signed out')).toBeInTheDocument();
    act(() => setAuthenticated(true));
    expect(screen.getByText('signed in')).toBeInTheDocument();
    expect(sessionStorage.getItem('authenticated')).toBe('1');
  });
});
