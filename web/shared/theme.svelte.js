// The page's colour scheme: the person's system setting, light or dark (prefers-color-scheme). The
// CSS follows it by itself (styles.css); what the page draws with colours of its own (the heatmaps'
// and bars' scales, the score functions' lines, the canvases) reads `theme.dark`, so that it is
// drawn again when the setting changes.
import { platform } from './platform.js';

const DARK = '(prefers-color-scheme: dark)';

export const theme = $state({ dark: false });

/** Follows the system's setting from now on: main.js calls it once the platform is installed. */
export function followColorScheme() {
  const query = platform.matchMedia(DARK);
  theme.dark = query.matches;
  query.addEventListener('change', () => (theme.dark = query.matches));
}
