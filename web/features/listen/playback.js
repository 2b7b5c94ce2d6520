// Plays the engine's PCM (a Float32Array from the audio module's renderAudio) through the Web Audio
// API: one AudioBuffer, one source node. The page only hands the samples over; it makes no sound
// of its own. The AudioContext is created on the first Play (browsers allow sound only after a
// gesture) and kept for the next ones.

/** @type {AudioContext | null} */
let context = null;
/** @type {AudioBufferSourceNode | null} */
let source = null;

/**
 * Starts playing `pcm` at `sampleRate`, stopping whatever played before.
 * @param {Float32Array} pcm samples in [−1, 1]
 * @param {number} sampleRate
 * @param {() => void} onended called when the sound ends or is stopped
 * @returns {{ buffer: AudioBuffer, elapsed: () => number }} the buffer, and the seconds played so far
 */
export function play(pcm, sampleRate, onended) {
  stop();
  context ??= new AudioContext();
  const buffer = context.createBuffer(1, pcm.length, sampleRate);
  buffer.copyToChannel(/** @type {Float32Array<ArrayBuffer>} */ (pcm), 0);
  const node = context.createBufferSource();
  node.buffer = buffer;
  node.connect(context.destination);
  node.onended = () => {
    if (source === node) source = null;
    onended();
  };
  const ctx = context;
  // A context created before any gesture starts suspended; the Play click resumes it.
  void ctx.resume();
  const start = ctx.currentTime;
  node.start();
  source = node;
  return { buffer, elapsed: () => Math.max(0, ctx.currentTime - start) };
}

/** Stops the sound playing, if any (its onended still fires). */
export function stop() {
  const node = source;
  source = null;
  try {
    node?.stop();
  } catch {
    // never started or already stopped
  }
}
