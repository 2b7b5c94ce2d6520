// Which score functions the Train view offers: the ones a task's info from the trainer lists (the
// engine's config check decided them), each enabled when the chosen style is one of its styles.
// Plain functions over the engine's answer, so the page decides nothing about what can train.
// The Transformer decoder races beside them as one more entry: its heads score by scaled dot product
// and it takes no attention style, so the style chosen never disables it.

/** The race entry (and the link's tr-scores name) of the encoder–decoder Transformer's run. */
export const TRANSFORMER_DECODER = 'transformer';

/**
 * @param {{ name: string, styles: readonly string[] }[] | null | undefined} listed the task info's scores
 * @param {string} style the chosen attention style
 * @param {string[]} fallback shown before the trainer has answered (every style allowed)
 * @param {boolean} [transformer] the trainer has a Transformer decoder's recipe for this data
 * @returns {{ name: string, styles: string[], ok: boolean }[]}
 */
export function offeredScores(listed, style, fallback, transformer = false) {
  const list = listed ?? fallback.map((name) => ({ name, styles: ['bahdanau', 'luong'] }));
  const offered = list.map((s) => {
    const styles = [...s.styles];
    return { name: s.name, styles, ok: styles.includes(style) };
  });
  return transformer
    ? [...offered, { name: TRANSFORMER_DECODER, styles: ['bahdanau', 'luong'], ok: true }]
    : offered;
}

/**
 * The chosen score functions that can train (offered and enabled), in the order chosen.
 * @param {{ name: string, ok: boolean }[]} offered
 * @param {string[]} chosen
 */
export function trainableChosen(offered, chosen) {
  const ok = new Set(offered.filter((s) => s.ok).map((s) => s.name));
  return chosen.filter((s) => ok.has(s));
}
