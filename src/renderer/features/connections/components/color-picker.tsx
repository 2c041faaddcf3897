import { connectionColors } from '../regions';

export function ColorPicker({ value, onChange }: { value: string; onChange(color: string): void }) {
  return (
    <div className="color-picker" role="radiogroup" aria-label="Colour">
      {connectionColors.map((color) => (
        <button
          type="button"
          role="radio"
          aria-checked={color === value}
          aria-label={color}
          key={color}
          className={`color-swatch${color === value ? ' is-selected' : ''}`}
          style={{ background: color }}
          onClick={() => onChange(color)}
        />
      ))}
      <label className="color-custom" title="Another colour">
        <input
          type="color"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-label="Custom colour"
        />
      </label>
    </div>
  );
}
