export interface BarPart {
  label: string;
  value: number;
  tone: 'danger' | 'warning' | 'success' | 'accent' | 'muted';
}

/**
 * One horizontal stacked bar in SVG (no chart library): each part's width is its share of the
 * total, with a legend that carries the exact numbers (the bar alone is not accessible).
 */
export function StackedBar({ parts, label }: { parts: BarPart[]; label: string }) {
  const total = parts.reduce((n, p) => n + p.value, 0);
  let x = 0;
  return (
    <figure className="mig-bar">
      <svg
        viewBox="0 0 100 8"
        preserveAspectRatio="none"
        role="img"
        aria-label={label}
        className="mig-bar-svg"
      >
        <rect x="0" y="0" width="100" height="8" className="mig-bar-track" />
        {total > 0
          ? parts.map((part) => {
              const width = (part.value / total) * 100;
              const rect =
                width > 0 ? (
                  <rect
                    key={part.label}
                    x={x}
                    y="0"
                    width={width}
                    height="8"
                    className={`mig-fill-${part.tone}`}
                  />
                ) : null;
              x += width;
              return rect;
            })
          : null}
      </svg>
      <figcaption className="mig-legend">
        {parts.map((part) => (
          <span key={part.label} className="mig-legend-item">
            <span className={`mig-swatch mig-fill-${part.tone}`} aria-hidden="true" />
            {part.label} <strong>{part.value.toLocaleString('en-US')}</strong>
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
