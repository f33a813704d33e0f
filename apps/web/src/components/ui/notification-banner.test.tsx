import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NotificationBanner } from './notification-banner';
import { Details } from './details';
import { InsetText } from './inset-text';
import { Spinner } from './spinner';

describe('NotificationBanner', () => {
  it('a success banner is an alert that takes focus', () => {
    render(<NotificationBanner variant="success">Your preferences were saved</NotificationBanner>);
    const banner = screen.getByRole('alert', { name: 'Success' });
    expect(banner).toHaveFocus();
    expect(banner).toHaveTextContent('Your preferences were saved');
  });

  it('an important banner is a labelled region that leaves focus alone', () => {
    render(
      <NotificationBanner title="Service update">We are upgrading our systems on Sunday</NotificationBanner>,
    );
    const banner = screen.getByRole('region', { name: 'Service update' });
    expect(banner).not.toHaveFocus();
    expect(banner).not.toHaveAttribute('tabindex');
  });
});

describe('small building blocks', () => {
  it('Details starts closed unless asked and reports toggles', () => {
    render(
      <Details summary="Why we ask" defaultOpen>
        To find your policies
      </Details>,
    );
    expect(screen.getByText('To find your policies')).toBeVisible();
  });

  it('InsetText renders its content', () => {
    render(<InsetText>Calls are recorded</InsetText>);
    expect(screen.getByText('Calls are recorded')).toHaveClass('ui-inset-text');
  });

  it('Spinner is announced only when labelled', () => {
    const { rerender } = render(<Spinner />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    rerender(<Spinner label="Loading your details" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your details');
  });
});
