// One colour per score function for the training curves and the run cards (Okabe–Ito: told apart
// with the common colour-vision deficiencies, each at least 3:1 on white for a 2 px line).
const COLORS = {
  dot: '#0072b2',
  scaled_dot: '#009e73',
  general: '#cc79a7',
  additive: '#d55e00',
  cosine: '#7a5c00',
  scaled_cosine: '#56409e',
  location: '#8f2d56',
};

/** The colour of a run of score function `score`. */
export const runColor = (score) => COLORS[score] ?? '#1b1f24';
