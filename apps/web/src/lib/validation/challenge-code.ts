/** Codes sent by text message (or a call to a mobile) have six digits; codes read out to a landline five. */
export const MOBILE_CODE_LENGTH = 6;
export const LANDLINE_CODE_LENGTH = 5;

export type CodePhoneKind = 'mobile' | 'landline';

export function codeLengthFor(kind: CodePhoneKind): number {
  return kind === 'landline' ? LANDLINE_CODE_LENGTH : MOBILE_CODE_LENGTH;
}

/** Boxes for a fresh (or cleared) code. */
export function emptyCode(length: number): string[] {
  return Array.from({ length }, () => '');
}

/** One box holds exactly one ASCII digit. */
export function isCodeDigit(value: string): boolean {
  return /^[0-9]$/.test(value);
}

/** The code is the concatenation of the boxes that hold a valid digit (spec section 5). */
export function codeValue(boxes: readonly string[]): string {
  return boxes.filter(isCodeDigit).join('');
}

/** Every box holds a digit and there are exactly `length` of them. */
export function isCodeComplete(boxes: readonly string[], length: number = boxes.length): boolean {
  return boxes.length === length && boxes.every(isCodeDigit);
}

/**
 * Pasting is accepted only when the text is all digits and exactly the box count. Surrounding whitespace
 * (a newline copied from a text message) is ignored; any other character refuses the paste.
 */
export function isAcceptablePaste(text: string, length: number): boolean {
  const trimmed = text.trim();
  return trimmed.length === length && /^[0-9]+$/.test(trimmed);
}

export interface CodeChange {
  boxes: string[];
  /** The box that should have focus afterwards. */
  focusIndex: number;
  /** False when the input was refused and the boxes are unchanged. */
  accepted: boolean;
}

/** Spreads a whole code across the boxes; the caller has checked it with isAcceptablePaste. */
function spread(text: string): CodeChange {
  const boxes = text.trim().split('');
  return { boxes, focusIndex: boxes.length - 1, accepted: true };
}

/**
 * What the boxes become when box `index` now holds `raw` (a change event: typing, a keyboard suggestion or
 * autofill). A full code in any box spreads across all boxes; one new digit fills the box and moves focus
 * on; an emptied box stays empty; anything else (a letter, a partial run of digits) is refused.
 */
export function applyBoxInput(boxes: readonly string[], index: number, raw: string): CodeChange {
  const unchanged: CodeChange = { boxes: [...boxes], focusIndex: index, accepted: false };
  if (index < 0 || index >= boxes.length) return unchanged;
  if (isAcceptablePaste(raw, boxes.length)) return spread(raw);

  const candidate = raw.trim();
  if (candidate === '') {
    const next = [...boxes];
    next[index] = '';
    return { boxes: next, focusIndex: index, accepted: true };
  }

  // A box that already held a digit and was not selected receives the new character beside the old one.
  const previous = boxes[index] ?? '';
  let typed = candidate;
  if (candidate.length > 1 && previous !== '') {
    if (candidate.startsWith(previous)) typed = candidate.slice(previous.length);
    else if (candidate.endsWith(previous)) typed = candidate.slice(0, -previous.length);
  }
  if (!isCodeDigit(typed)) return unchanged;

  const next = [...boxes];
  next[index] = typed;
  return { boxes: next, focusIndex: Math.min(index + 1, boxes.length - 1), accepted: true };
}

/** What the boxes become when `text` is pasted into any box: all or nothing. */
export function applyPaste(boxes: readonly string[], text: string): CodeChange {
  if (!isAcceptablePaste(text, boxes.length)) return { boxes: [...boxes], focusIndex: -1, accepted: false };
  return spread(text);
}
