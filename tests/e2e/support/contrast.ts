import type { Locator } from 'playwright-core';

/** WCAG's relative luminance of a computed colour, `rgb(r, g, b)` or `rgba(r, g, b, a)`. */
function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG's contrast ratio of two computed colours, 1 (the same) to 21 (black on white). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * How a disabled button is drawn next to the same button enabled (a copy of it, made and removed
 * beside it): fill and text colours as computed, and its opacity, which would fade both.
 */
export async function disabledLook(button: Locator): Promise<{
  enabled: { background: string; color: string };
  disabled: { background: string; color: string; opacity: string };
}> {
  return button.evaluate((element) => {
    const twin = element.cloneNode(true) as HTMLButtonElement;
    twin.disabled = false;
    element.after(twin);
    const on = getComputedStyle(twin);
    const off = getComputedStyle(element);
    const look = {
      enabled: { background: on.backgroundColor, color: on.color },
      disabled: { background: off.backgroundColor, color: off.color, opacity: off.opacity },
    };
    twin.remove();
    return look;
  });
}
