// A decoding session's step for the Transformer decoder (declared in session.hpp): the key/value
// cache of the positions decoded so far, or, without it, every earlier position recomputed.
#include "decode/session.hpp"

namespace apg::decode {

models::DecoderStep DecodeSession::transformer_next_step(const attention::StepOptions &used) const {
    const models::TransformerEdits edits = what_ifs_.edits(used);
    const int prev_token = steps_.empty() ? options_.start_id : steps_.back().token;
    if (options_.kv_cache) return model_->transformer_step(encoded_, cache_, prev_token, edits, options_.keep_qkv);
    // Each earlier position again from its input token and the what-ifs it was decoded with: the
    // keys and values a decoder without a cache recomputes at every step.
    models::KeyValueCache recomputed;
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        const models::DecoderStep &earlier = steps_[i].step;
        const models::DecoderStep again =
            model_->transformer_step(encoded_, recomputed, earlier.prev_token, earlier.transformer->edits);
        recomputed.append(*again.transformer);
    }
    return model_->transformer_step(encoded_, recomputed, prev_token, edits, options_.keep_qkv);
}

} // namespace apg::decode
