import { describe, expect, it } from 'vitest';
import {
  applyBoxInput,
  applyPaste,
  codeLengthFor,
  codeValue,
  emptyCode,
  isAcceptablePaste,
  isCodeComplete,
  isCodeDigit,
} from './challenge-code';

describe('code length', () => {
  it('is 6 for a mobile and 5 for a landline', () => {
    expect(codeLengthFor('mobile')).toBe(6);
    expect(codeLengthFor('landline')).toBe(5);
    expect(emptyCode(5)).toEqual(['', '', '', '', '']);
  });
});

describe('isCodeDigit', () => {
  it('accepts exactly one ASCII digit', () => {
    for (const d of '0123456789') expect(isCodeDigit(d)).toBe(true);
    for (const bad of ['', '12', 'a', ' ', '-', '١', '٣', '1 ']) expect(isCodeDigit(bad)).toBe(false);
  });
});

describe('codeValue and isCodeComplete', () => {
  it('concatenates only the valid boxes', () => {
    expect(codeValue(['1', '2', '3', '4', '5', '6'])).toBe('123456');
    expect(codeValue(['1', '', '3', 'x', '5', '66'])).toBe('135');
  });

  it('is complete only when every box has a digit and the count matches', () => {
    expect(isCodeComplete(['1', '2', '3', '4', '5', '6'], 6)).toBe(true);
    expect(isCodeComplete(['1', '2', '3', '4', '5'], 5)).toBe(true);
    expect(isCodeComplete(['1', '2', '3', '4', '5'], 6)).toBe(false);
    expect(isCodeComplete(['1', '2', '', '4', '5', '6'], 6)).toBe(false);
    expect(isCodeComplete(['1', '2', 'a', '4', '5', '6'])).toBe(false);
  });
});

describe('isAcceptablePaste', () => {
  it('accepts all digits of exactly the box count, ignoring surrounding whitespace', () => {
    expect(isAcceptablePaste('123456', 6)).toBe(true);
    expect(isAcceptablePaste(' 123456\n', 6)).toBe(true);
    expect(isAcceptablePaste('12345', 5)).toBe(true);
  });

  it('refuses the wrong count or any non-digit', () => {
    expect(isAcceptablePaste('12345', 6)).toBe(false);
    expect(isAcceptablePaste('1234567', 6)).toBe(false);
    expect(isAcceptablePaste('123456', 5)).toBe(false);
    expect(isAcceptablePaste('123 456', 6)).toBe(false);
    expect(isAcceptablePaste('12345a', 6)).toBe(false);
    expect(isAcceptablePaste('', 6)).toBe(false);
  });
});

describe('applyBoxInput', () => {
  const empty = emptyCode(6);

  it('fills a box with one digit and moves focus to the next', () => {
    expect(applyBoxInput(empty, 0, '7')).toEqual({
      boxes: ['7', '', '', '', '', ''],
      focusIndex: 1,
      accepted: true,
    });
  });

  it('keeps focus on the last box when it is filled', () => {
    expect(applyBoxInput(['1', '2', '3', '4', '5', ''], 5, '6').focusIndex).toBe(5);
  });

  it('refuses letters and symbols, leaving the boxes as they were', () => {
    const boxes = ['1', '', '', '', '', ''];
    for (const bad of ['a', '-', ' x', 'é']) {
      expect(applyBoxInput(boxes, 1, bad)).toEqual({ boxes, focusIndex: 1, accepted: false });
    }
  });

  it('spreads a full code entered into any box', () => {
    for (const index of [0, 2, 5]) {
      expect(applyBoxInput(empty, index, '123456')).toEqual({
        boxes: ['1', '2', '3', '4', '5', '6'],
        focusIndex: 5,
        accepted: true,
      });
    }
    expect(applyBoxInput(['9', '9', '', '', '', ''], 2, '654321').boxes).toEqual([
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
    ]);
  });

  it('refuses a partial run of digits', () => {
    expect(applyBoxInput(empty, 0, '123').accepted).toBe(false);
    expect(applyBoxInput(emptyCode(5), 0, '123456').accepted).toBe(false);
  });

  it('takes the new digit when typed beside an existing one', () => {
    const boxes = ['4', '', '', '', '', ''];
    expect(applyBoxInput(boxes, 0, '45').boxes[0]).toBe('5');
    expect(applyBoxInput(boxes, 0, '54').boxes[0]).toBe('5');
    expect(applyBoxInput(boxes, 0, '4a').accepted).toBe(false);
  });

  it('clears a box that was emptied', () => {
    expect(applyBoxInput(['1', '2', '', '', '', ''], 1, '')).toEqual({
      boxes: ['1', '', '', '', '', ''],
      focusIndex: 1,
      accepted: true,
    });
  });

  it('ignores an index outside the boxes', () => {
    expect(applyBoxInput(empty, 6, '1').accepted).toBe(false);
    expect(applyBoxInput(empty, -1, '1').accepted).toBe(false);
  });
});

describe('applyPaste', () => {
  it('spreads a valid code and focuses the last box', () => {
    expect(applyPaste(emptyCode(5), '24680')).toEqual({
      boxes: ['2', '4', '6', '8', '0'],
      focusIndex: 4,
      accepted: true,
    });
  });

  it('leaves the boxes untouched when the paste is refused', () => {
    const boxes = ['1', '2', '', '', '', ''];
    expect(applyPaste(boxes, '12345')).toEqual({ boxes, focusIndex: -1, accepted: false });
    expect(applyPaste(boxes, '12345a')).toEqual({ boxes, focusIndex: -1, accepted: false });
  });
});
