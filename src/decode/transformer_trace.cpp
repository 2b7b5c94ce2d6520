#include "decode/transformer_trace.hpp"

#include <algorithm>

namespace apg::decode {

namespace {

// h matrices of one shape (rows × cols) stacked into an h × rows × cols tensor.
template <class Get> trace::Tensor stack_heads(const attention::SelfAttentionResult &attn, Get get) {
    const std::size_t h = attn.heads.size();
    const Mat &first = get(attn.heads.front());
    const auto rows = static_cast<std::size_t>(first.rows()), cols = static_cast<std::size_t>(first.cols());
    trace::Tensor t = trace::Tensor::from_shape({h, rows, cols});
    for (std::size_t i = 0; i < h; ++i) {
        const Mat &m = get(attn.heads[i]);
        std::copy(m.data(), m.data() + m.size(), t.data() + i * rows * cols); // both row-major
    }
    return t;
}

// A d × d projection (out × in) cut into h blocks of dh rows: h × dh × d, head i's rows i·dh…
trace::Tensor head_rows(const Mat &w, std::size_t h) {
    const auto rows = static_cast<std::size_t>(w.rows()) / h, cols = static_cast<std::size_t>(w.cols());
    trace::Tensor t = trace::Tensor::from_shape({h, rows, cols});
    for (std::size_t r = 0; r < h * rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            t.data()[r * cols + c] = w(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
    return t;
}

trace::Tensor head_parts(const Vec &b, std::size_t h) {
    trace::Tensor t = trace::Tensor::from_shape({h, static_cast<std::size_t>(b.size()) / h});
    std::copy(b.data(), b.data() + b.size(), t.data());
    return t;
}

} // namespace

trace::StepRecord to_record(const models::TransformerLayerParams &params, const models::TransformerLayerCache &layer,
                            const Mat &input, std::span<const std::uint8_t> mask, int index) {
    trace::StepRecord r;
    r.kind = "self_attention";
    r.index = index;
    const auto &attn = layer.attn;
    const std::size_t h = attn.heads.size();
    r.set("input", trace::to_tensor(input));
    r.set("w_q", head_rows(params.attn.w_q, h));
    r.set("b_q", head_parts(params.attn.b_q, h));
    r.set("w_k", head_rows(params.attn.w_k, h));
    r.set("b_k", head_parts(params.attn.b_k, h));
    r.set("w_v", head_rows(params.attn.w_v, h));
    r.set("b_v", head_parts(params.attn.b_v, h));
    r.set("query", stack_heads(attn, [](const attention::SelfAttentionHead &h) -> const Mat & { return h.query; }));
    r.set("key", stack_heads(attn, [](const attention::SelfAttentionHead &h) -> const Mat & { return h.key; }));
    r.set("value", stack_heads(attn, [](const attention::SelfAttentionHead &h) -> const Mat & { return h.value; }));
    r.set("raw_scores",
          stack_heads(attn, [](const attention::SelfAttentionHead &h) -> const Mat & { return h.raw_scores; }));
    r.set("scores", stack_heads(attn, [](const attention::SelfAttentionHead &h) -> const Mat & { return h.scores; }));
    r.set("weights", stack_heads(attn, [](const attention::SelfAttentionHead &h) -> const Mat & { return h.weights; }));
    r.set("context", stack_heads(attn, [](const attention::SelfAttentionHead &h) -> const Mat & { return h.output; }));
    r.set("attention", trace::to_tensor(attn.output));
    r.set("norm1", trace::to_tensor(layer.norm1));
    r.set("ffn_hidden", trace::to_tensor(layer.ffn.hidden));
    r.set("output", trace::to_tensor(layer.output));
    r.fields["layer"] = index;
    r.fields["heads"] = attn.heads.size();
    r.fields["mask"] = std::vector<int>(mask.begin(), mask.end());
    return r;
}

std::vector<trace::StepRecord> to_records(const models::TransformerEncoderParams &params,
                                          const models::TransformerEncoderCache &cache) {
    std::vector<trace::StepRecord> records;
    for (std::size_t l = 0; l < cache.layers.size(); ++l) {
        const Mat &input = l == 0 ? cache.inputs : cache.layers[l - 1].output;
        records.push_back(to_record(params.layers.at(l), cache.layers[l], input, cache.mask, static_cast<int>(l)));
    }
    return records;
}

} // namespace apg::decode
