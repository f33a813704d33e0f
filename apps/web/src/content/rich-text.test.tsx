import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { registerNavigator } from '../lib/app-navigation';
import { RichText, sanitizeRichText } from './rich-text';

describe('rich text', () => {
  it('keeps rich text the contract allows as it is', () => {
    const html =
      '<p>Hi <strong>there</strong>, see <a href="/help">help</a> or <a href="tel:0800 123 4567">call</a>.</p>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it.each([
    '<p onclick="x()">Hi</p>',
    '<p>Hi<script>alert(1)</script></p>',
    '<p>Hi<img src=x onerror=alert(1)></p>',
    '<p><a href="javascript:alert(1)">bad</a></p>',
    '<p><a href="//evil.example/">bad</a></p>',
    '<p><a href="&#106;avascript:alert(1)">bad</a></p>',
    '<p/onclick=alert(1)>Hi</p>',
    '<svg><script>alert(1)</script></svg>',
    '<!-- x --><p>Hi</p>',
    '<p title="<img src=x onerror=alert(1)>">Hi</p>',
  ])('shows nothing of rich text the contract refuses: %s', (html) => {
    expect(sanitizeRichText(html)).toBe('');
    const { container } = render(<RichText html={html} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('makes new-tab links safe and says they open a new tab', () => {
    const html = sanitizeRichText('<a href="https://example.com" target="_blank">Claims</a>');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain('(opens in a new tab)');
    expect(html.match(/opens in a new tab/g)).toHaveLength(1);
  });

  it('drops a target other than a new tab, and any rel content set', () => {
    expect(sanitizeRichText('<a href="/help" target="_self" rel="opener">Help</a>')).toBe(
      '<a href="/help">Help</a>',
    );
    expect(
      sanitizeRichText(
        '<a href="https://example.com" rel="opener" target="_blank">Claims (opens in a new tab)</a>',
      ),
    ).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">Claims (opens in a new tab)</a>',
    );
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
