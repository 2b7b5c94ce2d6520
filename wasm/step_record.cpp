#include "step_record.hpp"

#include <emscripten/emscripten.h>

#include <vector>

// clang-format off
EM_JS(emscripten::EM_VAL, apg_step_record_js,
      (emscripten::EM_VAL vocab_handle, const float *floats, const int *ints), {
    const vocab = Emval.toValue(vocab_handle);
    const I = HEAP32.subarray(ints >> 2, (ints >> 2) + 18);
    let at = floats >> 2;
    const take = (n) => { const a = HEAPF32.slice(at, at + n); at += n; return a; };
    const choices = ['greedy', 'forced', 'beam'];
    const k = I[17];
    const topIds = HEAP32.subarray((ints >> 2) + 18, (ints >> 2) + 18 + k);
    const logProb = HEAPF32[at++];
    const maxScore = HEAPF32[at++];
    const expSum = HEAPF32[at++];
    const entropy = HEAPF32[at++];
    const maxEntropy = HEAPF32[at++];
    const topProbs = take(k);
    const top = [];
    for (let i = 0; i < k; i++) top.push({ id: topIds[i], token: vocab[topIds[i]], prob: topProbs[i] });
    const sizes = I.subarray(6, 17);
    const out = {
        index: I[0], kind: 'decoder', tokenId: I[1], token: vocab[I[1]], choice: choices[I[2]], logProb,
        prevTokenId: I[3], prevToken: vocab[I[3]], top,
    };
    out.prevState = take(sizes[0]);
    out.query = take(sizes[1]);
    out.scores = take(sizes[2]);
    out.hidden = sizes[3] ? { data: take(sizes[3]), rows: I[4], cols: I[5] } : null;
    out.weights = take(sizes[4]);
    out.context = take(sizes[5]);
    out.state = take(sizes[6]);
    out.attentional = sizes[7] ? take(sizes[7]) : null;
    out.logits = take(sizes[8]);
    out.probs = take(sizes[9]);
    out.exps = take(sizes[10]);
    out.maxScore = maxScore;
    out.expSum = expSum;
    out.entropy = entropy;
    out.maxEntropy = maxEntropy;
    return Emval.toHandle(out);
});
// clang-format on

namespace apg::wasm {

using emscripten::val;

// One step record is built by a single call into JS (apg_step_record_js above): the numbers
// travel packed in one float buffer and one int buffer instead of ~40 separate property sets,
// which would cost more than the decoding step itself.
//   ints:   index, tokenId, choice (0 greedy, 1 forced, 2 beam), prevTokenId, hiddenRows,
//           hiddenCols, the 11 buffer sizes below, k, k top ids
//   floats: logProb, maxScore, expSum, entropy, maxEntropy, k top probs, then prevState, query,
//           scores, hidden, weights, context, state, attentional, logits, probs, exps

// Scratch for the packing; reused so a step allocates nothing once warm.
struct StepPacking {
    std::vector<float> floats;
    std::vector<int> ints;
};

val step_to_js(const val &vocab, const decode::SessionStep &s, int index) {
    static StepPacking pack;
    const models::DecoderStep &d = s.step;
    const Mat &hidden = d.attention.score.hidden;
    const Vec *buffers[] = {&d.prev_state,
                            &d.query,
                            &d.attention.score.scores,
                            nullptr,
                            &d.attention.weights,
                            &d.attention.context,
                            &d.state,
                            &d.attentional,
                            &d.logits,
                            &d.probs,
                            &s.softmax.exps};
    const int k = static_cast<int>(s.top_ids.size());
    pack.ints.assign({index, s.token, static_cast<int>(s.choice), d.prev_token, static_cast<int>(hidden.rows()),
                      static_cast<int>(hidden.cols())});
    pack.floats.clear();
    pack.floats.push_back(s.log_prob);
    pack.floats.push_back(s.softmax.max_score);
    pack.floats.push_back(s.softmax.exp_sum);
    pack.floats.push_back(s.softmax.entropy);
    pack.floats.push_back(s.softmax.max_entropy);
    pack.floats.insert(pack.floats.end(), s.top_probs.begin(), s.top_probs.end());
    for (const Vec *b : buffers) {
        const float *data = b ? b->data() : hidden.data();
        const auto size = static_cast<std::size_t>(b ? b->size() : hidden.size());
        pack.ints.push_back(static_cast<int>(size));
        pack.floats.insert(pack.floats.end(), data, data + size);
    }
    pack.ints.push_back(k);
    pack.ints.insert(pack.ints.end(), s.top_ids.begin(), s.top_ids.end());
    return val::take_ownership(apg_step_record_js(vocab.as_handle(), pack.floats.data(), pack.ints.data()));
}

} // namespace apg::wasm
