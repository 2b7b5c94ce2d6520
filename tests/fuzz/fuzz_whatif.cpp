// libFuzzer target: the what-ifs of a decoding session. The bytes pick a tiny model (every score
// function, both styles, BiGRU / Transformer / audio / conv encoders), a source and the session's
// options, then a sequence of operations: mask and unmask a source token, pin a step on a token
// or on given weights, unpin, set τ, step, force, back, reset, run, and a beam search over the
// session's source with a schedule of what-ifs by step. Alongside, the target keeps its own account
// of what should be in force (the masks, the pin, τ) and holds every step, and every beam node, to it.
// Findings: a crash or sanitizer report; an exception that is not a coded error, or has another
// code than the operation documents; a refused operation that changed the session; a step whose
// weights are not a distribution (finite, ≥ 0, summing to 1), give weight to a masked token, are
// not the pinned ones, or whose probabilities, softmax terms or recorded what-ifs disagree; a
// beam search that refuses a schedule the account accepts (or the reverse), or whose nodes break
// the same rules at their step.
//
// Input: [0] model, [1] source length, [2] top_k, [3] max_steps, [4] τ at the start (a table
// index), [5..] the source (a byte per token / frame / pixel row), then operations: an opcode
// byte and its argument bytes.
#include "core/error.hpp"
#include "core/limits.hpp"
#include "decode/session.hpp"
#include "io/vocab.hpp"
#include "models/seq2seq.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

using apg::ErrorCode;
using apg::attention::ScoreKind;
using apg::models::AttentionStyle;
using apg::models::EncoderKind;

std::vector<std::unique_ptr<apg::models::Seq2Seq>> models;

[[noreturn]] void finding(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_whatif: %s: %s\n", what, detail.c_str());
    std::abort();
}

// Reads bytes one at a time; past the end, zeros.
struct Bytes {
    const std::uint8_t *data;
    std::size_t size, at = 0;
    bool more() const { return at < size; }
    std::uint8_t next() { return at < size ? data[at++] : 0; }
    float next_float() {
        std::uint8_t b[4] = {next(), next(), next(), next()};
        float f;
        std::memcpy(&f, b, sizeof f);
        return f;
    }
};

// Values where the range checks sit: inside, at and just past the limits, and the non-finite.
constexpr float inf = std::numeric_limits<float>::infinity();
const float special[] = {1.0f,
                         0.5f,
                         2.0f,
                         apg::limits::min_temperature,
                         apg::limits::max_temperature,
                         std::nextafter(apg::limits::min_temperature, 0.0f),
                         std::nextafter(apg::limits::max_temperature, inf),
                         0.0f,
                         -0.0f,
                         -1.0f,
                         inf,
                         -inf,
                         std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::denorm_min(),
                         std::numeric_limits<float>::min(),
                         std::numeric_limits<float>::max(),
                         1e-30f,
                         1e30f,
                         0.1f,
                         10.0f};
float pick_float(Bytes &in) {
    const std::uint8_t b = in.next();
    if (b < 2 * std::size(special)) return special[b % std::size(special)];
    if (b < 200) return static_cast<float>(b) / 16.0f; // 2.5 .. 12.4: ordinary weights and τ
    return in.next_float();
}

// An index around the valid ones (−1 .. n+1), or a far one.
int pick_index(Bytes &in, int n) {
    const std::uint8_t b = in.next();
    if (b == 255) return std::numeric_limits<int>::max();
    if (b == 254) return std::numeric_limits<int>::min();
    return b % (n + 3) - 1;
}

void expect(const apg::Error &e, ErrorCode code, const char *op) {
    const std::string_view text = e.text();
    if (text.empty() || text.find('\0') != std::string_view::npos) finding("message with a NUL", std::string(text));
    if (e.code() != code) finding(op, std::string(apg::name(e.code())) + ": " + std::string(text));
}

void add_model(ScoreKind score, AttentionStyle style, EncoderKind encoder) {
    apg::models::ModelConfig c;
    c.task = "whatif";
    c.score = score;
    c.style = style;
    c.encoder = encoder;
    c.source_vocab = 9;
    c.target_vocab = 7;
    c.embedding = 4;
    c.encoder_hidden = 2;
    c.heads = 2;
    c.layers = 1;
    c.ff_hidden = 5;
    c.image_size = 8;
    c.conv_channels = 2;
    c.input_dim = 3;
    c.reductions = 1;
    c.attention_dim = 3;
    c.location_filters = 2;
    c.location_width = 3;
    c.max_source_len = encoder == EncoderKind::conv ? 4 : 10;
    c.max_target_len = 8;
    c.decoder_hidden = apg::attention::same_size_query_and_keys(score) ? c.encoder_state() : 3;
    models.push_back(std::make_unique<apg::models::Seq2Seq>(c, 1 + models.size()));
}

// What the target expects to be in force, kept beside the session's own.
struct Account {
    std::vector<std::uint8_t> attend; // n, 1 = attend
    std::vector<float> pin;           // empty: none
    float temperature = 1;
};

void check_step(const apg::decode::SessionStep &s, const Account &want, const apg::models::Seq2Seq &model) {
    const auto n = static_cast<Eigen::Index>(want.attend.size());
    const apg::Vec &w = s.step.attention.weights;
    const apg::Vec &p = s.step.probs;
    if (p.size() != model.config().target_vocab || !p.allFinite() || (p.array() < 0).any() ||
        std::abs(p.sum() - 1.0f) > 1e-4f)
        finding("probs", "not a distribution over the target vocabulary");
    if (!std::isfinite(s.log_prob) || s.log_prob > 0) finding("log_prob", std::to_string(s.log_prob));
    if (s.temperature != want.temperature) finding("temperature", "the step's τ is not the one set");
    if (model.config().score == ScoreKind::none) {
        if (w.size() != 0) finding("weights", "a model without attention has weights");
        return;
    }
    if (w.size() != n) finding("weights", "size " + std::to_string(w.size()));
    double sum = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
        if (!std::isfinite(w[j]) || w[j] < 0)
            finding("weights", "entry " + std::to_string(j) + " = " + std::to_string(w[j]));
        sum += w[j];
        if (!want.pin.empty() && std::abs(w[j] - want.pin[static_cast<std::size_t>(j)]) > 1e-6f)
            finding("weights", "entry " + std::to_string(j) + " = " + std::to_string(w[j]) + ", pinned " +
                                   std::to_string(want.pin[static_cast<std::size_t>(j)]));
        if (want.pin.empty() && !want.attend[static_cast<std::size_t>(j)] && w[j] != 0)
            finding("weights", "a masked token has weight " + std::to_string(w[j]));
    }
    if (std::abs(sum - 1) > 1e-4) finding("weights", "sum to " + std::to_string(sum));
    // The softmax terms say what the model (masked, tempered) would have given.
    const auto &t = s.softmax;
    if (t.exps.size() != n || !t.exps.allFinite() || !std::isfinite(t.exp_sum) || !(t.exp_sum >= 1) ||
        !std::isfinite(t.entropy) || t.entropy < -1e-4f || t.entropy > t.max_entropy + 1e-3f)
        finding("softmax terms", "exp_sum " + std::to_string(t.exp_sum) + ", entropy " + std::to_string(t.entropy) +
                                     " of at most " + std::to_string(t.max_entropy));
    const bool masked = std::find(want.attend.begin(), want.attend.end(), 0) != want.attend.end();
    if (s.intervened != (masked || !want.pin.empty() || want.temperature != 1.0f))
        finding("intervened", "does not say whether a what-if was in force");
    if ((s.masked.size() != 0) != masked) finding("masked", "the step's mask record is wrong");
}

// A beam search's what-ifs, read from the bytes: steps around the decode's (−1 .. max_steps + 1,
// and far ones), tokens around the source's, weights and τ where the checks sit.
std::vector<apg::decode::ScheduledWhatIf> pick_schedule(Bytes &in, int n, int max_steps) {
    using Kind = apg::decode::ScheduledWhatIf::Kind;
    std::vector<apg::decode::ScheduledWhatIf> list(in.next() % 7);
    for (auto &w : list) {
        w.kind = static_cast<Kind>(in.next() % 5);
        w.step = pick_index(in, max_steps);
        if (w.kind == Kind::pin_weights) {
            w.weights.resize(static_cast<std::size_t>(in.next() % 4 == 0 ? in.next() % (n + 2) : n));
            for (float &x : w.weights) x = pick_float(in);
        } else if (w.kind == Kind::temperature) {
            w.temperature = pick_float(in);
        } else {
            w.token = pick_index(in, n);
        }
    }
    return list;
}

// The account at the start of output step `depth` under `list`, replayed by the target's own
// rules; false when one of the what-ifs of steps up to `depth` is one the engine must refuse.
bool account_at(const std::vector<apg::decode::ScheduledWhatIf> &list, int depth, Account &out) {
    using Kind = apg::decode::ScheduledWhatIf::Kind;
    const int n = static_cast<int>(out.attend.size());
    for (int step = 0; step <= depth; ++step) {
        out.pin.clear();
        for (const auto &w : list) {
            if (w.step != step) continue;
            if (w.kind == Kind::temperature) {
                if (!(w.temperature >= apg::limits::min_temperature && w.temperature <= apg::limits::max_temperature))
                    return false;
                out.temperature = w.temperature;
                continue;
            }
            if (w.kind == Kind::pin_weights) {
                double sum = 0;
                for (float x : w.weights) {
                    if (!std::isfinite(x) || x < 0) return false;
                    sum += x;
                }
                if (static_cast<int>(w.weights.size()) != n || !(sum > 0)) return false;
                out.pin.resize(w.weights.size());
                for (std::size_t j = 0; j < w.weights.size(); ++j) out.pin[j] = static_cast<float>(w.weights[j] / sum);
                continue;
            }
            if (w.token < 0 || w.token >= n) return false;
            const auto j = static_cast<std::size_t>(w.token);
            if (w.kind == Kind::pin) {
                out.pin.assign(static_cast<std::size_t>(n), 0.0f);
                out.pin[j] = 1;
            } else {
                out.attend[j] = w.kind == Kind::mask ? 0 : 1;
                if (std::count(out.attend.begin(), out.attend.end(), 1) == 0) return false;
            }
        }
    }
    return true;
}

// A beam search over the session's source: refused exactly when the width or the schedule is bad
// (a what-if at a step past the last is never applied, so never refused), and each node's weights
// are those the account holds at its step.
void check_beam(Bytes &in, const apg::decode::DecodeSession &s, const apg::decode::SessionOptions &options,
                const Account &initial) {
    const apg::models::Seq2Seq &model = s.model();
    const int n = static_cast<int>(initial.attend.size());
    const std::uint8_t b = in.next();
    const int width = b == 255 ? apg::limits::max_beam_width + 1 : b % 6; // 0 and past the limit are refused
    const std::vector<apg::decode::ScheduledWhatIf> list = pick_schedule(in, n, s.max_steps());
    bool valid = width >= 1 && width <= apg::limits::max_beam_width;
    for (const auto &w : list) valid = valid && w.step >= 0;
    Account last = initial;
    valid = valid && account_at(list, s.max_steps() - 1, last);
    apg::decode::BeamResult result;
    try {
        result = apg::decode::beam_search(model, s.encoded(), width, options, list);
    } catch (const apg::Error &e) {
        expect(e, ErrorCode::bad_argument, "beam");
        if (valid) finding("beam refused a valid schedule", std::string(e.text()));
        return;
    } catch (const std::exception &e) {
        finding("beam: uncoded exception", e.what());
    }
    if (!valid) finding("beam", "accepted a schedule with a bad what-if or width " + std::to_string(width));
    if (result.beams.empty()) finding("beam", "no final beam");
    for (const apg::decode::BeamNode &node : result.nodes) {
        Account want = initial;
        account_at(list, node.depth, want);
        const apg::Vec &w = node.step.attention.weights;
        if (model.config().score == ScoreKind::none) {
            if (w.size() != 0) finding("beam weights", "a model without attention has weights");
            continue;
        }
        if (w.size() != n) finding("beam weights", "size " + std::to_string(w.size()));
        double sum = 0;
        for (Eigen::Index j = 0; j < n; ++j) {
            const auto k = static_cast<std::size_t>(j);
            if (!std::isfinite(w[j]) || w[j] < 0) finding("beam weights", "entry " + std::to_string(j));
            sum += w[j];
            if (!want.pin.empty() && std::abs(w[j] - want.pin[k]) > 1e-6f)
                finding("beam weights", "entry " + std::to_string(j) + " is not the pinned weight");
            if (want.pin.empty() && !want.attend[k] && w[j] != 0)
                finding("beam weights", "a masked token has weight " + std::to_string(w[j]));
        }
        if (std::abs(sum - 1) > 1e-4) finding("beam weights", "sum to " + std::to_string(sum));
        const bool masked = std::find(want.attend.begin(), want.attend.end(), 0) != want.attend.end();
        if (node.intervened != (masked || !want.pin.empty() || want.temperature != 1.0f))
            finding("beam intervened",
                    "does not say whether a what-if was in force at step " + std::to_string(node.depth));
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    std::vector<ScoreKind> scores(apg::attention::all_score_kinds.begin(), apg::attention::all_score_kinds.end());
    scores.push_back(ScoreKind::location);
    for (ScoreKind score : scores)
        for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong})
            add_model(score, style, EncoderKind::gru);
    add_model(ScoreKind::none, AttentionStyle::bahdanau, EncoderKind::gru);
    for (EncoderKind encoder : {EncoderKind::transformer, EncoderKind::audio, EncoderKind::conv}) {
        add_model(ScoreKind::additive, AttentionStyle::bahdanau, encoder);
        add_model(ScoreKind::location, AttentionStyle::luong, encoder);
    }
    add_model(ScoreKind::dot, AttentionStyle::luong, EncoderKind::audio);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    Bytes in{data, size};
    const apg::models::Seq2Seq &model = *models[in.next() % models.size()];
    const apg::models::ModelConfig &c = model.config();
    const int length = 1 + in.next() % c.max_source_len;
    apg::decode::SessionOptions options;
    options.top_k = in.next() % 9; // 0 is refused
    options.max_steps = in.next() % 12;
    options.attention.temperature = pick_float(in);
    std::unique_ptr<apg::decode::DecodeSession> session;
    try {
        if (c.encoder == EncoderKind::audio) {
            std::vector<float> frames(static_cast<std::size_t>(length) * c.input_dim);
            for (float &x : frames) x = static_cast<float>(in.next()) / 64.0f;
            session = std::make_unique<apg::decode::DecodeSession>(model, model.encode_audio(frames), options);
        } else if (c.encoder == EncoderKind::conv) {
            std::vector<std::uint8_t> pixels(static_cast<std::size_t>(c.image_size) * c.image_size * 3);
            for (std::size_t i = 0; i < pixels.size(); i += 24) std::fill_n(pixels.begin() + i, 24, in.next());
            session = std::make_unique<apg::decode::DecodeSession>(model, model.encode_image(pixels), options);
        } else {
            std::vector<int> ids(static_cast<std::size_t>(length));
            for (int &id : ids) id = in.next() % c.source_vocab;
            session = std::make_unique<apg::decode::DecodeSession>(model, ids, options);
        }
    } catch (const apg::Error &e) {
        expect(e, ErrorCode::bad_argument, "session options");
        if (options.top_k >= 1 && options.attention.temperature >= apg::limits::min_temperature &&
            options.attention.temperature <= apg::limits::max_temperature)
            finding("session refused valid options", std::string(e.text()));
        return 0;
    } catch (const std::exception &e) {
        finding("session: uncoded exception", e.what());
    }
    apg::decode::DecodeSession &s = *session;
    const int n = static_cast<int>(s.encoded().states.rows());
    Account want{std::vector<std::uint8_t>(static_cast<std::size_t>(n), 1), {}, options.attention.temperature};
    const Account initial = want;

    for (int ops = 0; in.more() && ops < 64; ++ops) {
        const std::uint8_t op = in.next() % 12;
        const Account before = want;
        const std::size_t steps_before = s.steps().size();
        try {
            switch (op) {
            case 0:
            case 1: {
                const int j = pick_index(in, n);
                const bool masked = op == 0;
                s.mask(j, masked);
                if (j < 0 || j >= n) finding("mask", "accepted index " + std::to_string(j));
                want.attend[static_cast<std::size_t>(j)] = masked ? 0 : 1;
                if (std::count(want.attend.begin(), want.attend.end(), 1) == 0)
                    finding("mask", "every source token masked");
                break;
            }
            case 2: {
                const int j = pick_index(in, n);
                s.pin(j);
                if (j < 0 || j >= n) finding("pin", "accepted index " + std::to_string(j));
                want.pin.assign(static_cast<std::size_t>(n), 0.0f);
                want.pin[static_cast<std::size_t>(j)] = 1;
                break;
            }
            case 3: {
                std::vector<float> weights(static_cast<std::size_t>(in.next() % 3 == 0 ? in.next() % (n + 2) : n));
                for (float &x : weights) x = pick_float(in);
                s.pin(weights);
                double sum = 0;
                for (float x : weights) {
                    if (!std::isfinite(x) || x < 0) finding("pin", "accepted weight " + std::to_string(x));
                    sum += x;
                }
                if (static_cast<int>(weights.size()) != n || !(sum > 0)) finding("pin", "accepted weights");
                want.pin.resize(weights.size());
                for (std::size_t j = 0; j < weights.size(); ++j) want.pin[j] = static_cast<float>(weights[j] / sum);
                break;
            }
            case 4:
                s.unpin();
                want.pin.clear();
                break;
            case 5: {
                const float t = pick_float(in);
                s.set_temperature(t);
                if (!(t >= apg::limits::min_temperature && t <= apg::limits::max_temperature))
                    finding("temperature", "accepted " + std::to_string(t));
                want.temperature = t;
                break;
            }
            case 6:
            case 7: {
                const bool was_done = s.done();
                const int token = op == 6 ? -2 : pick_index(in, c.target_vocab);
                if (op == 6)
                    s.step();
                else
                    s.force(token);
                if (was_done) finding("step", "a finished session took a step");
                check_step(s.steps().back(), want, model);
                want.pin.clear(); // a pin is for one step
                break;
            }
            case 8:
                s.back();
                break;
            case 9:
                s.reset();
                want = initial;
                break;
            case 10: {
                const int taken = s.run();
                // the pin holds for the first of them only
                for (std::size_t i = steps_before; i < s.steps().size(); ++i) {
                    check_step(s.steps()[i], want, model);
                    want.pin.clear();
                }
                if (static_cast<std::size_t>(taken) != s.steps().size() - steps_before) finding("run", "miscounted");
                if (!s.done()) finding("run", "not done after run()");
                break;
            }
            case 11:
                // the beam's schedule starts from the session's options, not its what-ifs
                check_beam(in, s, options, initial);
                break;
            }
        } catch (const apg::Error &e) {
            const bool finished = (op == 6 || op == 7) && s.done() && s.steps().size() == steps_before;
            expect(e, finished && e.code() == ErrorCode::bad_state ? ErrorCode::bad_state : ErrorCode::bad_argument,
                   "operation");
            // A refused operation leaves the session as it was.
            if (s.steps().size() != steps_before) finding("refused operation", "changed the steps");
            want = before;
        } catch (const std::exception &e) {
            finding("uncoded exception", e.what());
        }
        if (s.attend_mask() != want.attend) finding("mask", "the session's mask is not the one set");
        if (s.temperature() != want.temperature) finding("temperature", "the session's τ is not the one set");
        if ((s.pinned().size() != 0) != !want.pin.empty()) finding("pin", "the session's pin is not the one set");
        if (static_cast<int>(s.steps().size()) > s.max_steps()) finding("steps", "more than max_steps");
    }
    return 0;
}
