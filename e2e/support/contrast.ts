import { expect, type Locator } from '@playwright/test';

/**
 * The contrast ratio (WCAG 2.x) of an element's text against what is behind it, as the browser paints
 * it: the text colour over the element's background, over the first opaque background of its
 * ancestors, with the opacity of the element and its ancestors applied.
 */
export async function contrastOf(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    type Rgba = [number, number, number, number];
    const parse = (colour: string): Rgba => {
      const [r = 0, g = 0, b = 0, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
      return [r, g, b, colour.startsWith('rgba') ? a : 1];
    };
    const over = (top: Rgba, below: Rgba, alpha = top[3]): Rgba => [
      top[0] * alpha + below[0] * (1 - alpha),
      top[1] * alpha + below[1] * (1 - alpha),
      top[2] * alpha + below[2] * (1 - alpha),
      1,
    ];
    const backdrop = (from: Element | null): Rgba => {
      for (let el = from; el; el = el.parentElement) {
        const bg = parse(getComputedStyle(el).backgroundColor);
        if (bg[3] > 0) return over(bg, backdrop(el.parentElement));
      }
      return [255, 255, 255, 1];
    };
    let opacity = 1;
    for (let el: Element | null = element; el; el = el.parentElement) {
      opacity *= Number(getComputedStyle(el).opacity);
    }
    const behind = backdrop(element.parentElement);
    const background = over(backdrop(element), behind, opacity);
    const text = over(over(parse(getComputedStyle(element).color), backdrop(element)), behind, opacity);
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  });
}

/** Text a customer must be able to read, disabled or not: at least 4.5:1 (WCAG 1.4.3, AA). */
export async function expectReadable(locator: Locator): Promise<void> {
  const ratio = await contrastOf(locator);
  expect(
    ratio,
    `contrast of "${await locator.textContent()}" is ${ratio.toFixed(2)}:1`,
  ).toBeGreaterThanOrEqual(4.5);
}
