// Hand-made .safetensors checkpoints of any size a config allows, for the tests that decode at (or
// past) the engine's memory limits: a GRU or Transformer encoder (or a conv or audio one copied
// from a shipped checkpoint) and a Bahdanau decoder with a dot, general or additive score. The
// names and shapes are the loader's (src/models/*params.cpp).
// Every weight is 0 except the output bias, which makes `winner` the most probable token at every
// step: with a winner other than '</s>' a decoding takes every step it is allowed.

const specials = ['<pad>', '<s>', '</s>', '<unk>'];

/** Token names for a vocabulary of `size` (the four specials first). */
export function vocabulary(size, prefix = 't') {
  const tokens = specials.slice(0, size);
  for (let i = tokens.length; i < size; i++) tokens.push(`${prefix}${i}`);
  return JSON.stringify({ tokenizer: 'words', tokens });
}

/** The tensors (name → shape) of a config. */
export function tensorShapes(c) {
  const E = c.embedding;
  const out = {};
  let dh;
  if (c.encoder === 'transformer') {
    const d = E;
    dh = d;
    out['encoder.embedding'] = [c.source_vocab, d];
    for (let l = 0; l < c.layers; l++) {
      const p = `encoder.layers.${l}.`;
      for (const w of ['q', 'k', 'v', 'o']) {
        out[`${p}attn.w_${w}`] = [d, d];
        out[`${p}attn.b_${w}`] = [d];
      }
      out[`${p}ffn.w1`] = [c.ff_hidden, d];
      out[`${p}ffn.b1`] = [c.ff_hidden];
      out[`${p}ffn.w2`] = [d, c.ff_hidden];
      out[`${p}ffn.b2`] = [d];
      for (const n of ['ln1', 'ln2']) {
        out[`${p}${n}.gain`] = [d];
        out[`${p}${n}.bias`] = [d];
      }
    }
  } else if (c.encoder === 'conv' || c.encoder === 'audio') {
    dh = c.encoder === 'conv' ? c.encoder_hidden + 2 : 2 * c.encoder_hidden; // copied: encoderFrom
  } else {
    const He = c.encoder_hidden;
    dh = 2 * He;
    out['encoder.embedding'] = [c.source_vocab, E];
    for (const dir of ['fwd', 'bwd']) {
      out[`encoder.${dir}.w_ih`] = [3 * He, E];
      out[`encoder.${dir}.w_hh`] = [3 * He, He];
      out[`encoder.${dir}.b_ih`] = [3 * He];
      out[`encoder.${dir}.b_hh`] = [3 * He];
    }
  }
  const Hd = c.decoder_hidden;
  out['decoder.embedding'] = [c.target_vocab, E];
  out['decoder.gru.w_ih'] = [3 * Hd, E + dh];
  out['decoder.gru.w_hh'] = [3 * Hd, Hd];
  out['decoder.gru.b_ih'] = [3 * Hd];
  out['decoder.gru.b_hh'] = [3 * Hd];
  out['decoder.init.w'] = [Hd, dh];
  out['decoder.init.b'] = [Hd];
  if (c.score === 'additive') {
    out['decoder.attn.w_q'] = [c.attention_dim, Hd];
    out['decoder.attn.w_k'] = [c.attention_dim, dh];
    out['decoder.attn.v'] = [c.attention_dim];
  } else if (c.score === 'general') {
    out['decoder.attn.w'] = [Hd, dh];
  }
  out['decoder.out.w'] = [c.target_vocab, Hd + dh + E];
  out['decoder.out.b'] = [c.target_vocab];
  return out;
}

/**
 * A checkpoint's bytes. `config`: the model's (task, score, sizes, lengths; style bahdanau).
 * `winner`: the token the output bias favours (default 4, never '</s>').
 */
/**
 * `encoderFrom`: a checkpoint (bytes) whose encoder tensors are copied, for the conv and audio
 * encoders (its config's encoder fields must be in `config`).
 */
export function makeCheckpoint(config, { winner = 4, encoderFrom } = {}) {
  const c = { task: 'memory', style: 'bahdanau', bidirectional: true, ...config };
  const shapes = tensorShapes(c);
  const copied = {};
  if (encoderFrom) {
    const view = new DataView(encoderFrom.buffer, encoderFrom.byteOffset, encoderFrom.byteLength);
    const length = Number(view.getBigUint64(0, true));
    const header = JSON.parse(new TextDecoder().decode(encoderFrom.subarray(8, 8 + length)));
    for (const [name, entry] of Object.entries(header))
      if (name.startsWith('encoder.')) {
        shapes[name] = entry.shape;
        const [begin, end] = entry.data_offsets;
        copied[name] = encoderFrom.subarray(8 + length + begin, 8 + length + end);
      }
  }
  const header = {};
  let offset = 0;
  for (const name of Object.keys(shapes).sort()) {
    const bytes = 4 * shapes[name].reduce((a, b) => a * b, 1);
    header[name] = { dtype: 'F32', shape: shapes[name], data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  header.__metadata__ = {
    format: 'apg-seq2seq-1',
    config: JSON.stringify(c),
    source_vocab: vocabulary(c.source_vocab, 's'),
    target_vocab: vocabulary(c.target_vocab, 't'),
    training: '{}',
  };
  let text = JSON.stringify(header);
  while (text.length % 8) text += ' ';
  const json = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + json.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  for (const [name, data] of Object.entries(copied))
    out.set(data, 8 + json.length + header[name].data_offsets[0]);
  const bias = header['decoder.out.b'].data_offsets[0];
  view.setFloat32(8 + json.length + bias + 4 * winner, 10, true);
  return out;
}

/** A source text of n tokens of a vocabulary made by vocabulary(size, 's'). */
export function sourceText(n, size) {
  return Array.from({ length: n }, (_, i) => `s${4 + (i % (size - 4))}`).join(' ');
}
