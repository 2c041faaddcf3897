/** Black or white text, whichever reads better on a #rrggbb background (WCAG relative luminance). */
export function textColorOn(hex: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  const [, red, green, blue] = match ?? [];
  if (red === undefined || green === undefined || blue === undefined) return '#ffffff';
  const channel = (value: string) => {
    const c = parseInt(value, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
  // Contrast against white is (1.05)/(L+0.05); against black (L+0.05)/0.05. Pick the larger.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#111418';
}
