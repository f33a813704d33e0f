import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PasswordRequirements, type PasswordRequirementsSettings } from './password-requirements';

const settings: PasswordRequirementsSettings = {
  minPasswordLength: 10,
  lowercaseChar: true,
  uppercaseChar: true,
  numberChar: true,
  specialChar: false,
};

const rows = () =>
  within(screen.getByRole('list', { name: 'Password requirements' })).getAllByRole('listitem');

describe('PasswordRequirements', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the rules switched on in settings and always "No spaces"', () => {
    render(<PasswordRequirements id="req" value="" settings={settings} />);
    expect(rows().map((r) => r.textContent)).toEqual([
      'At least 10 characters (not met)',
      'A lower case letter (not met)',
      'A capital letter (not met)',
      'A number (not met)',
      'No spaces (not met)',
    ]);
  });

  it('marks each row met or not met in text as well as by its icon', () => {
    render(<PasswordRequirements id="req" value="abc DEF" settings={settings} />);
    const [length, lower, upper, number, spaces] = rows();
    expect(length).toHaveTextContent('(not met)');
    expect(lower).toHaveTextContent('A lower case letter (met)');
    expect(upper).toHaveTextContent('A capital letter (met)');
    expect(number).toHaveTextContent('(not met)');
    expect(spaces).toHaveTextContent('No spaces (not met)');
    expect(lower).toHaveClass('ui-password-requirements__item--met');
    expect(number).not.toHaveClass('ui-password-requirements__item--met');
  });

  it('uses the content texts, filling {minLength}', () => {
    render(
      <PasswordRequirements
        id="req"
        value=""
        settings={{
          ...settings,
          specialChar: true,
          heading: 'Your password needs',
          minLengthText: '{minLength} or more characters',
          specialText: 'A symbol',
          noSpacesText: 'No spaces',
        }}
      />,
    );
    expect(screen.getByRole('list', { name: 'Your password needs' })).toBeInTheDocument();
    expect(screen.getByText('10 or more characters')).toBeInTheDocument();
    expect(screen.getByText('A symbol')).toBeInTheDocument();
  });

  it('announces progress once typing pauses, not on every keystroke', () => {
    const { rerender } = render(<PasswordRequirements id="req" value="" settings={settings} />);
    const status = screen.getByRole('status');
    for (const value of ['a', 'aB', 'aB3']) {
      rerender(<PasswordRequirements id="req" value={value} settings={settings} />);
      act(() => {
        vi.advanceTimersByTime(300);
      });
      expect(status).toBeEmptyDOMElement();
    }
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(status).toHaveTextContent('4 of 5 password requirements met');

    rerender(<PasswordRequirements id="req" value="aB3defghij" settings={settings} />);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(status).toHaveTextContent('All password requirements met');
  });

  it('does not announce again when the count of met rules is unchanged', () => {
    const { rerender } = render(<PasswordRequirements id="req" value="a" settings={settings} />);
    const status = screen.getByRole('status');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(status).toBeEmptyDOMElement();
    rerender(<PasswordRequirements id="req" value="ab" settings={settings} />);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(status).toBeEmptyDOMElement();
  });
});
