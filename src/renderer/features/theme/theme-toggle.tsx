import { SunMoonIcon } from '../../ui/icons';
import { useThemeStore } from './store';

const labels = { system: 'Theme: follows the system', light: 'Theme: light', dark: 'Theme: dark' } as const;

export function ThemeToggle() {
  const choice = useThemeStore((state) => state.choice);
  const cycle = useThemeStore((state) => state.cycle);
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      onClick={cycle}
      title={labels[choice]}
      aria-label={labels[choice]}
    >
      <SunMoonIcon choice={choice} />
    </button>
  );
}
