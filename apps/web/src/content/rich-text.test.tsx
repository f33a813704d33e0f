import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../lib/app-navigation';
import { RichText, sanitizeRichText } from './rich-text';

describe('rich text', () => {
  it('keeps the allowed tags and drops scripts, handlers and unsafe links', () => {
    const html = sanitizeRichText(
      '<p onclick="x()">Hi <strong>there</strong><script>alert(1)</script><img src=x onerror=alert(1)>' +
        '<a href="javascript:alert(1)">bad</a> <a href="//evil.example/">also bad</a> <a href="/help">good</a></p>',
    );
    expect(html).not.toMatch(/script|onclick|onerror|<img|javascript:|evil/);
    expect(html).toContain('<strong>there</strong>');
    expect(html).toContain('<a href="/help">good</a>');
  });

  it('makes new-tab links safe and says they open a new tab', () => {
    const html = sanitizeRichText('<a href="https://example.com" target="_blank">Claims</a>');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain('(opens in a new tab)');
  });

  it('moves the router for site links instead of reloading the page', async () => {
    const navigate = vi.fn();
    const unregister = registerNavigator({ navigate, currentPath: () => '/' });
    render(
      <RichText html='<p>See <a href="/help/faqs">help</a> or <a href="tel:08001234567">call</a></p>' />,
    );
    await userEvent.click(screen.getByRole('link', { name: 'help' }));
    expect(navigate).toHaveBeenCalledWith('/help/faqs', undefined);
    unregister();
  });

  it('renders nothing for empty content', () => {
    const { container } = render(<RichText html="" />);
    expect(container).toBeEmptyDOMElement();
  });
});
