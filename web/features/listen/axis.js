// The time ticks under the Listen view's bars: round times (0.05 s … 5 s apart, as many as fit
// one every `minGap` pixels) on the frames the bars cover. Choosing where ticks go is drawing;
// the frame length is the engine's (samplesPerFrame / sampleRate).

const STEPS = [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5];

/**
 * @param {number} frames how many frames the bars span
 * @param {number} secondsPerFrame the engine's frame length
 * @param {number} width the bars' width in pixels
 * @param {number} [minGap] the fewest pixels between two ticks
 * @returns {{ frame: number, seconds: number, label: string }[]}
 */
export function timeTicks(frames, secondsPerFrame, width, minGap = 56) {
  if (!(frames > 0) || !(secondsPerFrame > 0) || !(width > 0)) return [];
  const total = frames * secondsPerFrame;
  const step = STEPS.find((s) => (s / total) * width >= minGap) ?? STEPS[STEPS.length - 1];
  const decimals = step < 0.1 ? 2 : step < 1 ? (step === 0.25 ? 2 : 1) : 0;
  const out = [];
  // a tick's frame is the frame starting at that time (k·step on the frames' clock)
  for (let k = 0; k * step <= total + 1e-9; k++) {
    const frame = Math.round((k * step) / secondsPerFrame);
    // the last label would hang past the right edge
    if (frame > frames || (frame / frames) * width > width - minGap / 2) break;
    out.push({ frame, seconds: frame * secondsPerFrame, label: (k * step).toFixed(decimals) });
  }
  return out;
}

/**
 * The letter the synthesizer was saying at `frame` (its span in the engine's utterance), or null
 * between letters or past the end.
 * @param {import('../../../wasm/audio/audio').LetterSpan[]} spans
 * @param {number} frame
 */
export const spanAt = (spans, frame) => spans.find((s) => s.begin <= frame && frame < s.end) ?? null;
