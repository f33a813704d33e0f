import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FullPageLoader } from './full-page-loader';
import { createLoaderStore, LOADER_HIDE_DELAY_MS, LOADER_TEXT } from './loader-store';

describe('loader store (spec section 4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows as soon as a loader is added', () => {
    const store = createLoaderStore();
    expect(store.getState()).toEqual({ count: 0, visible: false, disabled: false });
    expect(store.add()).toBe(true);
    expect(store.getState()).toMatchObject({ count: 1, visible: true });
  });

  it('hides 1000 ms after the count returns to zero, not before', () => {
    const store = createLoaderStore();
    store.add();
    store.add();
    store.remove();
    expect(store.getState()).toMatchObject({ count: 1, visible: true });
    store.remove();
    expect(store.getState()).toMatchObject({ count: 0, visible: true });
    vi.advanceTimersByTime(LOADER_HIDE_DELAY_MS - 1);
    expect(store.getState().visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(store.getState().visible).toBe(false);
    expect(LOADER_HIDE_DELAY_MS).toBe(1000);
  });

  it('stays up when a new loader opens during the hide delay', () => {
    const store = createLoaderStore();
    store.add();
    store.remove();
    vi.advanceTimersByTime(600);
    store.add();
    vi.advanceTimersByTime(2000);
    expect(store.getState()).toMatchObject({ count: 1, visible: true });
    store.remove();
    vi.advanceTimersByTime(1000);
    expect(store.getState().visible).toBe(false);
  });

  it('ignores adding while disabled, and the next removal enables it again', () => {
    const store = createLoaderStore();
    store.disable();
    expect(store.add()).toBe(false);
    expect(store.getState()).toMatchObject({ count: 0, visible: false, disabled: true });
    store.remove();
    expect(store.getState()).toMatchObject({ count: 0, disabled: false });
    expect(store.add()).toBe(true);
    expect(store.getState()).toMatchObject({ count: 1, visible: true });
  });

  it('never counts below zero', () => {
    const store = createLoaderStore();
    store.remove();
    store.remove();
    expect(store.getState().count).toBe(0);
    store.add();
    expect(store.getState().count).toBe(1);
  });

  it('tells subscribers about changes', () => {
    const store = createLoaderStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.add();
    store.remove();
    vi.advanceTimersByTime(1000);
    expect(listener).toHaveBeenCalledTimes(3);
    unsubscribe();
    store.add();
    expect(listener).toHaveBeenCalledTimes(3);
  });
});

describe('FullPageLoader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the exact text in a status region while loading, and nothing once hidden', () => {
    const store = createLoaderStore();
    render(<FullPageLoader store={store} />);
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();
    act(() => void store.add());
    expect(status).toHaveTextContent(LOADER_TEXT);
    expect(LOADER_TEXT).toBe("Thank you for being patient. We're just loading your details.");
    act(() => store.remove());
    expect(status).toHaveTextContent(LOADER_TEXT);
    act(() => void vi.advanceTimersByTime(1000));
    expect(status).toBeEmptyDOMElement();
  });
});
