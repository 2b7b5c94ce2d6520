// The memory budget of a decoding (decode/budget.hpp): refused before the encoder runs when a
// product of sizes each within its limit is past limits::max_work_bytes, and an upper bound of
// what a session really keeps where it is admitted (measured with the allocator's count of bytes
// in use, where the allocator gives one).
#include "core/error.hpp"
#include "core/limits.hpp"
#include "decode/budget.hpp"
#include "decode/session.hpp"
#include "models/transformer_decoder.hpp"
#include "support/heap_in_use.hpp"

#include <doctest/doctest.h>

#include <string>
#include <variant>
#include <vector>

using namespace apg;
using models::ModelConfig;

namespace {

ModelConfig sized(attention::ScoreKind score, int n, int steps, int attention_dim, int vocab) {
    ModelConfig c;
    c.task = "budget";
    c.score = score;
    c.source_vocab = 8;
    c.target_vocab = vocab;
    c.embedding = 2;
    c.encoder_hidden = 2;
    c.decoder_hidden = score == attention::ScoreKind::additive || score == attention::ScoreKind::location ||
                               score == attention::ScoreKind::general
                           ? 3
                           : 4;
    c.attention_dim = attention_dim;
    c.max_source_len = n;
    c.max_target_len = steps - 1;
    return c;
}

ModelConfig transformer(int layers, int heads, int n) {
    ModelConfig c = sized(attention::ScoreKind::additive, n, 4, 4, 8);
    c.encoder = models::EncoderKind::transformer;
    c.embedding = heads;
    c.heads = heads;
    c.layers = layers;
    c.ff_hidden = 4;
    return c;
}

// A Transformer decoder of `layers` × `heads` (d = heads) over the BiGRU, scaled dot-product as
// its cross-attention is.
ModelConfig transformer_decoder(int layers, int heads, int n, int steps) {
    models::register_transformer_decoder();
    ModelConfig c = sized(attention::ScoreKind::scaled_dot, n, steps, 4, 8);
    c.style = models::AttentionStyle::luong;
    c.decoder = models::DecoderKind::transformer;
    c.embedding = heads;
    c.heads = heads;
    c.layers = layers;
    c.ff_hidden = 4;
    return c;
}

std::vector<int> source_of_length(int n) {
    std::vector<int> ids;
    for (int i = 0; i < n; ++i) ids.push_back(4 + i % 4);
    return ids;
}

std::string name_of(const Error &e) {
    for (const auto &[key, value] : e.details())
        if (key == "name") return std::get<std::string>(value);
    return "";
}

// Takes every step the session allows (a forced token that is not the end token).
void run_all(decode::DecodeSession &s) {
    while (!s.done()) s.force(4);
}

} // namespace

TEST_CASE("decode budget: steps × n × attention_dim past the limit is refused before the encoder runs") {
    const models::Seq2Seq model(sized(attention::ScoreKind::additive, 512, 1024, 4096, 8), 1);
    const std::int64_t before = test::heap_in_use();
    try {
        decode::DecodeSession session(model, source_of_length(512));
        FAIL("no refusal");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::limit_exceeded);
        CHECK(name_of(e) == "steps × source positions × attention_dim");
        CHECK(std::string(e.text()).starts_with("session: 1024 steps × 512 source positions × 4096 attention_dim"));
    }
    if (before >= 0) CHECK(test::heap_in_use() - before < (1 << 20));
    // a short input and few steps fit
    decode::SessionOptions options;
    options.max_steps = 16;
    decode::DecodeSession fits(model, source_of_length(8), options);
    run_all(fits);
    CHECK(fits.steps().size() == 16);
}

TEST_CASE("decode budget: a transformer's layers × heads × n² self-attention caches are refused before encoding") {
    const models::Seq2Seq model(transformer(16, 16, 512), 1);
    try {
        decode::DecodeSession session(model, source_of_length(512));
        FAIL("no refusal");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::limit_exceeded);
        CHECK(name_of(e) == "layers × heads × source positions × source positions");
    }
    CHECK_NOTHROW(decode::DecodeSession(model, source_of_length(64)));
}

TEST_CASE("decode budget: a Transformer decoder's per-step records and key/value cache are budgeted") {
    // Each step keeps layers × heads × n cross-attention numbers, and layers × heads × t of its
    // own: 1,024 steps of 16 × 16 heads over 512 positions is 512 MiB of cross-attention alone.
    const ModelConfig c = transformer_decoder(16, 16, 512, 1024);
    c.validate();
    const models::Seq2Seq model(c, 1);
    try {
        decode::DecodeSession session(model, source_of_length(512));
        FAIL("no refusal");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::limit_exceeded);
        CHECK(name_of(e) == "steps × layers × heads × source positions");
        CHECK(std::string(e.text()).starts_with("session: 1024 steps × 16 layers × 16 heads × 512 source positions"));
    }
    // keep_qkv keeps each head's keys and values too: a session the plain budget admits may not fit
    decode::SessionOptions options;
    options.max_steps = 64;
    CHECK_NOTHROW(decode::DecodeSession(model, source_of_length(64), options));
    options.keep_qkv = true;
    options.max_steps = 1024;
    CHECK(decode::session_memory(c, 64, 1024, 5, "session", true).total() >
          decode::session_memory(c, 64, 1024, 5, "session").total() * 1.5);
    // a beam search's hypotheses each hold a decoder step
    decode::SessionOptions few;
    few.max_steps = 8;
    decode::DecodeSession short_one(model, source_of_length(512), few);
    CHECK_THROWS_AS(decode::beam_search(model, short_one.encoded(), 16, {}), InputError);
}

TEST_CASE("decode budget: a beam search's hypotheses are budgeted before the search") {
    const models::Seq2Seq model(sized(attention::ScoreKind::additive, 64, 1000, 512, 8), 1);
    decode::DecodeSession session(model, source_of_length(64));
    try {
        decode::beam_search(model, session.encoded(), 8, {});
        FAIL("no refusal");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::limit_exceeded);
        CHECK(name_of(e) == "hypothesis steps × source positions × attention_dim");
    }
}

TEST_CASE("decode budget: exports are checked by their own size") {
    const ModelConfig c = transformer(16, 16, 128);
    CHECK_NOTHROW(decode::check_export_memory(c, 128, 4, 5, decode::Export::npy, "exportNpy"));
    CHECK_THROWS_AS(decode::check_export_memory(c, 128, 4, 5, decode::Export::json, "exportJson"), InputError);
    CHECK_NOTHROW(decode::check_export_memory(c, 128, 0, 5, decode::Export::self_attention, "selfAttention"));
}

TEST_CASE("decode budget: what a session keeps is within its budget, and most of it") {
    struct Case {
        const char *what;
        ModelConfig config;
        int n;
    };
    const Case cases[] = {
        {"additive", sized(attention::ScoreKind::additive, 50, 100, 256, 8), 50},
        {"location", sized(attention::ScoreKind::location, 50, 100, 256, 8), 50},
        {"general, a large vocabulary", sized(attention::ScoreKind::general, 10, 50, 4, 20000), 10},
        {"transformer", transformer(4, 8, 100), 100},
        {"transformer decoder", transformer_decoder(4, 8, 50, 100), 50},
    };
    for (const Case &k : cases) {
        const std::string what = k.what;
        CAPTURE(what);
        const models::Seq2Seq model(k.config, 2);
        const double budget = decode::session_memory(k.config, k.n, k.config.max_target_len + 1, 5, "session").total();
        CHECK(budget < static_cast<double>(limits::max_work_bytes));
        const std::int64_t before = test::heap_in_use();
        decode::DecodeSession session(model, source_of_length(k.n));
        run_all(session);
        const std::int64_t kept = test::heap_in_use() - before;
        if (before < 0) continue; // no count of the allocator's to compare with
        CAPTURE(kept);
        CAPTURE(budget);
        MESSAGE(what << ": kept " << kept << " of a budget of " << budget);
        CHECK(static_cast<double>(kept) <= budget);
        CHECK(static_cast<double>(kept) >= budget / 3);
    }
}
