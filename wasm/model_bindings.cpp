// The embind surface for trained models (declared for TypeScript in playground.d.ts):
// Model.load(bytes) → model.info(), model.accuracyByLength(pairs, options) (trainer module only), model.decode(text) →
// a decoding session with step, force, back, reset, run, beam, trace and exports. Conversion only: the work is done by
// io::Model and decode::DecodeSession; C++ exceptions reach JS as Error.
#include "convert.hpp"
#include "decode/budget.hpp"
#include "decode/length_accuracy.hpp"
#include "decode/record_schema.hpp"
#include "decode/session.hpp"
#include "decode/transformer_trace.hpp"
#include "handle.hpp"
#include "io/model.hpp"
#include "js_error.hpp"
#include "model_convert.hpp"
#include "models/transformer_decoder.hpp"
#include "session_methods.hpp"
#include "step_record.hpp"
#include "trace/trace.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// clang-format off
// A record's table arrives once, as words: the field count, then per field its name, type, shape,
// doc and labels as (address, length) of their text, optional, the label count, and its `of`.
EM_JS(void, apg_schema_js, (const char *kind, const int *words), {
    const schemas = Module['apgSchemas'] || (Module['apgSchemas'] = {});
    let w = words >> 2;
    const text = () => { const s = UTF8ToString(HEAP32[w], HEAP32[w + 1]); w += 2; return s; };
    const camel = (name) => name.replace(/_(.)/g, (m, c) => c.toUpperCase());
    const schema = [];
    const count = HEAP32[w++];
    for (let n = 0; n < count; n++) {
        const trace = text();
        const field = { name: camel(trace), trace, type: text() };
        const shape = text();
        field.shape = shape ? shape.split(' ') : [];
        field.optional = HEAP32[w++] !== 0;
        field.doc = text();
        const labels = HEAP32[w++];
        if (field.type === 'label') field.labels = [];
        for (let l = 0; l < labels; l++) field.labels.push(text());
        const of = text();
        if (field.type === 'token') field.of = camel(of);
        schema.push(field);
    }
    schemas[UTF8ToString(kind)] = schema;
});

EM_JS(emscripten::EM_VAL, apg_schema_copy_js, (const char *kind), {
    return Emval.toHandle(JSON.parse(JSON.stringify(Module['apgSchemas'][UTF8ToString(kind)])));
});

// clang-format on

namespace apg::wasm {
namespace {

std::vector<int> schema_words(std::span<const decode::record::Field> fields) {
    std::vector<int> words;
    const auto text = [&words](std::string_view s) {
        words.push_back(static_cast<int>(reinterpret_cast<std::intptr_t>(s.data())));
        words.push_back(static_cast<int>(s.size()));
    };
    words.push_back(static_cast<int>(fields.size()));
    for (const auto &f : fields) {
        text(f.name);
        text(decode::record::type_names[static_cast<int>(f.type)]);
        text(f.shape);
        words.push_back(f.optional ? 1 : 0);
        text(f.doc);
        words.push_back(static_cast<int>(f.labels.size()));
        for (std::string_view label : f.labels) text(label);
        text(f.of);
    }
    return words;
}

val record_schema(const std::string &kind) {
    static const bool sent = [] {
        apg_schema_js("decoder", schema_words(decode::record::decoder_step).data());
        apg_schema_js("self_attention", schema_words(decode::record::self_attention_layer).data());
        return true;
    }();
    (void)sent;
    if (kind != "decoder" && kind != "self_attention")
        bad_argument("recordSchema", ": expected 'decoder' or 'self_attention', got \"" + kind + "\"");
    return val::take_ownership(apg_schema_copy_js(kind.c_str()));
}

using io::Model;

// A text session also keeps its source's tokens, to name them.
struct SessionState : ModuleSession {
    std::vector<std::string> source_tokens;
};

// {data: Float32Array (row-major copy), shape: number[]}
val tensor_to_js(const trace::Tensor &t) {
    val shape = val::array();
    for (auto d : t.shape()) shape.call<void>("push", static_cast<double>(d));
    val out = val::object();
    out.set("data", val(emscripten::typed_memory_view(t.size(), t.data())).call<val>("slice"));
    out.set("shape", shape);
    return out;
}

// A trace record as one JS object: kind, index, its fields and its buffers, camel-cased.
val record_to_js(const trace::StepRecord &r) {
    val out = json_to_js(r.fields);
    for (const auto &key : emscripten::vecFromJSArray<std::string>(val::global("Object").call<val>("keys", out))) {
        const std::string renamed = camel_case(key);
        if (renamed == key) continue;
        out.set(renamed, out[key]);
        out.delete_(key);
    }
    out.set("kind", r.kind);
    out.set("index", r.index);
    for (const auto &[name, tensor] : r.tensors) out.set(camel_case(name), tensor_to_js(tensor));
    return out;
}

val optional_vec(const Vec &v) { return v.size() > 0 ? to_js(v) : val::null(); }

// ---- Model ----

val load_js(val bytes) {
    if (!bytes.instanceof (val::global("Uint8Array")))
        bad_argument("Model.load", ": expected the checkpoint as a Uint8Array, got " + describe(bytes));
    const double length = bytes["length"].as<double>();
    if (length > static_cast<double>(limits::max_file_bytes))
        limit_exceeded("Model.load",
                       ": the file has " + number_text(length) + " bytes, at most " +
                           std::to_string(limits::max_file_bytes) + " are accepted",
                       static_cast<std::int64_t>(limits::max_file_bytes));
    std::vector<std::uint8_t> data(static_cast<std::size_t>(length));
    // One bulk copy into the wasm memory (the view is taken after the allocation).
    val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", bytes);
    return val(Handle<const Model>{std::make_shared<const Model>(Model::load(data))});
}

val info_js(const std::shared_ptr<const Model> &model) {
    const Model &m = *model;
    const auto &c = m.config();
    val out = val::object();
    out.set("task", c.task);
    out.set("score", std::string(attention::name(c.score)));
    out.set("style", std::string(models::name(c.style)));
    val dims = val::object();
    dims.set("embedding", c.embedding);
    dims.set("encoder", std::string(models::name(c.encoder)));
    dims.set("decoder", std::string(models::name(c.decoder)));
    dims.set("encoderHidden", c.encoder_hidden);
    dims.set("heads", c.has_transformer() ? val(c.heads) : val::null());
    dims.set("layers", c.has_transformer() ? val(c.layers) : val::null());
    dims.set("ffHidden", c.has_transformer() ? val(c.ff_hidden) : val::null());
    dims.set("bidirectional", c.bidirectional);
    dims.set("encoderState", c.encoder_state());
    dims.set("decoderHidden", c.decoder_hidden);
    dims.set("attentionDim", c.attention_dim);
    const bool location = c.score == attention::ScoreKind::location;
    dims.set("locationFilters", location ? val(c.location_filters) : val::null());
    dims.set("locationWidth", location ? val(c.location_width) : val::null());
    dims.set("maxSourceLen", c.max_source_len);
    dims.set("maxTargetLen", c.max_target_len);
    out.set("dims", dims);
    val model_limits = val::object();
    model_limits.set("minSourceTokens", 1); // an empty input is refused (empty_input)
    model_limits.set("maxSourceTokens", c.max_source_len);
    model_limits.set("maxTargetTokens", c.max_target_len);
    model_limits.set("maxTopK", m.target_vocab().size());
    out.set("limits", model_limits);
    out.set("sourceTokenizer", std::string(io::tokenizer_name(m.source_vocab().tokenizer())));
    out.set("targetTokenizer", std::string(io::tokenizer_name(m.target_vocab().tokenizer())));
    out.set("srcVocab", vocab_to_js(m.source_vocab()));
    out.set("tgtVocab", vocab_to_js(m.target_vocab()));
    const auto &training = m.training();
    out.set("heldoutExactMatch", training_number(training, "heldout_exact_match"));
    out.set("training", json_to_js(training));
    return out;
}

// The decoding options, read out of JS before the model is touched. Limits that depend on the
// model (topK at most the target vocabulary) are checked afterwards.
struct DecodeRequest {
    std::string text;
    std::optional<std::int64_t> top_k, max_steps;
    std::optional<float> temperature;
    bool kv_cache = true, qkv = false; // the Transformer decoder's
};

constexpr std::int64_t kMaxSteps = limits::max_decode_steps;
constexpr std::int64_t kMaxBeamWidth = limits::max_beam_width;
// topK is checked against the target vocabulary once the model is at hand; this bounds the read.
constexpr std::int64_t kMaxTopK = 1 << 20;

std::optional<val> option(const val &options, const char *name) {
    if (!options.hasOwnProperty(name) || options[name].isUndefined()) return std::nullopt;
    return options[name];
}

DecodeRequest decode_request(const val &text, const val &options_js) {
    if (!text.isString()) bad_argument("decode", ": expected the input text as a string, got " + describe(text));
    const val options = options_js.isUndefined() ? val::object() : options_js;
    if (options.typeOf().as<std::string>() != "object" || options.isNull())
        bad_argument("options", ": expected an object, got " + describe(options));
    for (const auto &key : own_keys(options))
        if (key != "topK" && key != "maxSteps" && key != "temperature" && key != "kvCache" && key != "qkv")
            bad_argument("options." + key, " is not an option of decode (topK, maxSteps, temperature, kvCache, qkv)");
    DecodeRequest r;
    // Measured before it is copied: a text past the limit is refused without a copy.
    r.text = text_from_js(text, "input", {limits::max_input_chars, "input"});
    if (const auto v = option(options, "topK")) r.top_k = whole_number(*v, "options.topK", 1, kMaxTopK);
    if (const auto v = option(options, "maxSteps")) r.max_steps = whole_number(*v, "options.maxSteps", 0, kMaxSteps);
    if (const auto v = option(options, "temperature")) r.temperature = to_temperature(*v);
    for (const auto &[name, flag] : {std::pair{"kvCache", &r.kv_cache}, std::pair{"qkv", &r.qkv}})
        if (const auto v = option(options, name)) {
            if (!v->isTrue() && !v->isFalse())
                bad_argument(std::string("options.") + name, ": expected true or false, got " + describe(*v));
            *flag = v->isTrue();
        }
    return r;
}

val decode_js(const std::shared_ptr<const Model> &model, const DecodeRequest &r) {
    const Model &m = *model;
    std::vector<int> ids = m.encode_source(r.text);
    decode::SessionOptions session_options;
    session_options.start_id = io::Vocabulary::bos;
    session_options.end_id = io::Vocabulary::eos;
    const int vocab = m.target_vocab().size();
    if (r.top_k && *r.top_k > vocab)
        bad_argument("options.topK",
                     ": expected a whole number from 1 to " + std::to_string(vocab) + ", got " +
                         std::to_string(*r.top_k),
                     vocab);
    session_options.top_k = r.top_k ? static_cast<int>(*r.top_k) : std::min(5, vocab);
    session_options.max_steps = r.max_steps ? static_cast<int>(*r.max_steps) : 0;
    if (r.temperature) session_options.attention.temperature = *r.temperature;
    session_options.kv_cache = r.kv_cache;
    session_options.keep_qkv = r.qkv;
    auto s = std::make_shared<SessionState>();
    s->model = model;
    s->source_tokens = m.source_vocab().tokenize(r.text);
    s->target_tokens = vocab_to_js(m.target_vocab());
    s->session = std::make_unique<decode::DecodeSession>(m.network(), std::move(ids), session_options);
    return val(Handle<SessionState>{std::move(s)});
}

#ifdef APG_LENGTH_ACCURACY
// Only the trainer module offers this (it evaluates in a Worker): the page's first .wasm would be
// ~7 KB larger.
// Pairs read from JS at most: ten times a task's held-out set.
constexpr std::int64_t kMaxPairs = 10'000;

// pairs: [[source text, target text], …]; options {bucketWidth (default 4)}. Returns {bucketWidth,
// pairs, hits, buckets: [{minLength, maxLength, pairs, hits, exactMatch}], matches: Uint8Array
// (1 where pair k matched), sourceLengths: Int32Array (pair k's source tokens)}. No progress callback:
// the entry guard hands the engine functions as empty ones, so a Worker that shows progress calls
// this on slices of its pairs.
val accuracy_by_length_js(const std::shared_ptr<const Model> &model, val pairs_js, val options_js) {
    const Model &m = *model;
    if (!pairs_js.isArray())
        bad_argument("accuracyByLength",
                     ": expected the pairs as an array of [source, target], got " + describe(pairs_js));
    const val options = options_js.isUndefined() ? val::object() : options_js;
    if (options.typeOf().as<std::string>() != "object" || options.isNull())
        bad_argument("options", ": expected an object, got " + describe(options));
    for (const auto &key : own_keys(options))
        if (key != "bucketWidth") bad_argument("options." + key, " is not an option of accuracyByLength (bucketWidth)");
    const auto width = option(options, "bucketWidth");
    const int bucket_width =
        width ? static_cast<int>(whole_number(*width, "options.bucketWidth", 1, limits::max_input_tokens)) : 4;
    const double count = pairs_js["length"].as<double>();
    if (count > static_cast<double>(kMaxPairs))
        limit_exceeded("accuracyByLength", ": " + number_text(count) + " pairs, at most " + std::to_string(kMaxPairs),
                       kMaxPairs);
    decode::Sequences sources, targets;
    for (int k = 0; k < static_cast<int>(count); ++k) {
        const val pair = pairs_js[k];
        const std::string where = "pairs[" + std::to_string(k) + "]";
        if (!pair.isArray() || pair["length"].as<int>() != 2 || !pair[0].isString() || !pair[1].isString())
            bad_argument(where, ": expected [source text, target text], got " + describe(pair));
        sources.push_back(m.encode_source(text_from_js(pair[0], where, {limits::max_input_chars, where + "[0]"})));
        targets.push_back(
            m.target_vocab().encode(text_from_js(pair[1], where, {limits::max_input_chars, where + "[1]"})));
    }
    decode::LengthAccuracy result = decode::length_buckets(sources, targets, bucket_width, sources.size());
    // Per pair, so the page can list a bucket's examples and mark the ones the model missed.
    std::vector<std::uint8_t> matches(sources.size());
    std::vector<std::int32_t> lengths(sources.size());
    for (std::size_t k = 0; k < sources.size(); ++k) {
        const bool hit =
            decode::count_pair(m.network(), sources, targets, k, io::Vocabulary::bos, io::Vocabulary::eos, result);
        matches[k] = hit ? 1 : 0;
        lengths[k] = static_cast<std::int32_t>(sources[k].size());
    }
    const val buckets = array_of(result.buckets, [](const decode::LengthBucket &b) {
        return object_of({{"minLength", val(b.min_length)},
                          {"maxLength", val(b.max_length)},
                          {"pairs", val(b.pairs)},
                          {"hits", val(b.hits)},
                          {"exactMatch", val(b.exact_match())}});
    });
    val out = val::object();
    out.set("bucketWidth", result.bucket_width);
    out.set("pairs", result.pairs);
    out.set("hits", result.hits);
    out.set("buckets", buckets);
    out.set("matches", val(emscripten::typed_memory_view(matches.size(), matches.data())).call<val>("slice"));
    out.set("sourceLengths", val(emscripten::typed_memory_view(lengths.size(), lengths.data())).call<val>("slice"));
    return out;
}
#endif

// ---- Session ----

// The Transformer decoder's what-ifs on one head: {headMask | headUnmask: [layer, head, i]},
// {headPin: [layer, head, i | weights]}, {headOff | headOn: [layer, head]}. False for another key.
// The ranges are the session's to judge (it knows the layers, heads and source length).
bool head_what_if(decode::DecodeSession &session, const std::string &key, const val &v) {
    const bool pin = key == "headPin", switching = key == "headOff" || key == "headOn";
    if (!pin && !switching && key != "headMask" && key != "headUnmask") return false;
    const int length = switching ? 2 : 3;
    if (!v.isArray() || v["length"].as<double>() != length)
        bad_argument(key, switching ? ": expected [layer, head], got " + describe(v)
                                    : ": expected [layer, head, " + std::string(pin ? "i | weights" : "i") + "], got " +
                                          describe(v));
    const auto index = [&](int k) {
        return static_cast<int>(whole_number(v[k], key + "[" + std::to_string(k) + "]", -(1 << 30), 1 << 30));
    };
    const int layer = index(0), head = index(1);
    if (switching)
        session.switch_head(layer, head, key == "headOn");
    else if (pin && !v[2].isNumber()) {
        const Vec weights = to_vec(v[2], key + "[2]");
        session.pin_head(layer, head, std::span<const float>(weights.data(), static_cast<std::size_t>(weights.size())));
    } else if (pin)
        session.pin_head(layer, head, index(2));
    else
        session.mask_head(layer, head, index(2), key == "headMask");
    return true;
}

// A what-if, one per call (one binding keeps the page's .wasm small): {mask: i}, {unmask: i},
// {pin: i | weights | null}, {temperature: τ}. The checks of range are the session's (it knows the
// source length); here only the JS values are judged.
val what_if_js(SessionState &s, val what) {
    // Object.keys of a number or a string gives no key or several: refused below.
    if (what.isArray() || what.isNull() || what.isUndefined())
        bad_argument("whatIf", ": expected {mask | unmask | pin | temperature: value}");
    const std::vector<std::string> keys = own_keys(what);
    const std::string key = keys.size() == 1 ? keys.front() : "";
    const val v = key.empty() ? val::undefined() : what[key];
    const auto index = [&] { return static_cast<int>(whole_number(v, key, -(1 << 30), 1 << 30)); };
    if (key == "mask" || key == "unmask")
        s.session->mask(index(), key == "mask");
    else if (key == "pin" && (v.isNull() || v.isUndefined()))
        s.session->unpin();
    else if (key == "pin" && v.isNumber())
        s.session->pin(index());
    else if (key == "pin") {
        const Vec weights = to_vec(v, "pin");
        s.session->pin(std::span<const float>(weights.data(), static_cast<std::size_t>(weights.size())));
    } else if (key == "temperature") {
        s.session->set_temperature(to_temperature(v, "temperature"));
    } else if (!head_what_if(*s.session, key, v))
        bad_argument("whatIf", ": expected one key of mask, unmask, pin, temperature, headMask, headUnmask, headPin, "
                               "headOff, headOn");
    return val::undefined();
}

val source_tokens_js(SessionState &s) { return strings_to_js(s.source_tokens); }

// The transformer encoder's layers (kind "self_attention"); none for a GRU encoder.
std::vector<trace::StepRecord> self_attention_records(const SessionState &s) {
    const auto &cache = s.session->encoded().self_attention;
    return cache ? decode::to_records(s.model->network().parameters().transformer, *cache)
                 : std::vector<trace::StepRecord>{};
}

// An export's memory, checked before its records are made (decode/budget.hpp).
void check_export(const SessionState &s, decode::Export kind, const char *who) {
    const auto &steps = s.session->steps();
    const int top_k = steps.empty() ? 0 : static_cast<int>(steps.front().top_ids.size());
    const bool keep_qkv =
        !steps.empty() && steps.front().step.transformer && !steps.front().step.transformer->self_query.empty();
    decode::check_export_memory(s.model->config(), s.session->encoded().states.rows(),
                                static_cast<std::int64_t>(steps.size()), top_k, kind, who, keep_qkv);
}

val self_attention_js(SessionState &s) {
    check_export(s, decode::Export::self_attention, "selfAttention");
    val out = val::array();
    for (const auto &r : self_attention_records(s)) out.call<void>("push", record_to_js(r));
    return out;
}

// One row of one head of the Transformer encoder's self-attention as a Python file (decode/reproduce.hpp).
val reproduce_self_attention_js(SessionState &s, val layer, val head, val query, val model, val input) {
    const auto &cache = s.session->encoded().self_attention;
    if (!cache) bad_argument("reproduceSelfAttention", ": this model's encoder has no self-attention");
    const auto &c = s.model->config();
    const auto l = whole_number(layer, "layer", 0, c.layers - 1);
    const auto h = whole_number(head, "head", 0, c.heads - 1);
    const auto q = whole_number(query, "query", 0, s.session->encoded().states.rows() - 1);
    return val(decode::reproduce_self_attention(s.model->network().parameters().transformer, *cache,
                                                static_cast<int>(l), static_cast<int>(h), static_cast<int>(q),
                                                session_methods::reproduce_about(s, model, input)));
}

std::vector<std::string> output_tokens(const SessionState &s) {
    std::vector<std::string> out;
    for (int id : s.session->output_ids()) out.push_back(s.model->target_vocab().token(id));
    return out;
}

val confidence_js(SessionState &s) {
    const decode::Confidence c = s.session->confidence();
    return object_of({{"steps", val(c.steps)},
                      {"meanProb", val(c.mean_prob)},
                      {"minProb", val(c.min_prob)},
                      {"minStep", val(c.min_step)},
                      {"sequenceProb", val(c.sequence_prob)},
                      {"low", val(c.low)},
                      {"lowBelow", val(decode::low_confidence)}});
}

trace::Trace session_trace(const SessionState &s) {
    trace::Trace t;
    const auto &c = s.model->config();
    t.meta["model"] = c.to_json();
    t.meta["source_tokens"] = s.source_tokens;
    t.meta["output_tokens"] = output_tokens(s);
    const auto &steps = s.session->steps();
    for (int i = 0; i < static_cast<int>(steps.size()); ++i)
        t.steps.push_back(decode::record::to_record(steps[i], i, s.model->target_vocab().tokens()));
    return t;
}

// The decoder's steps under "steps"; a transformer encoder's layers under "encoder".
val export_json_js(SessionState &s) {
    check_export(s, decode::Export::json, "exportJson");
    nlohmann::json j = session_trace(s).to_json();
    const auto layers = self_attention_records(s);
    if (!layers.empty()) {
        j["encoder"] = nlohmann::json::array();
        for (const auto &r : layers) j["encoder"].push_back(trace::to_json(r));
    }
    return val(j.dump());
}

// One file per buffer; a transformer encoder's buffers stacked over its layers as "encoder.<name>.npy"
// (e.g. "encoder.weights.npy": layers × heads × n × n).
val export_npy_js(SessionState &s) {
    check_export(s, decode::Export::npy, "exportNpy");
    val out = val::object();
    auto put = [&out](const std::string &name, const std::string &bytes) {
        const auto *data = reinterpret_cast<const std::uint8_t *>(bytes.data());
        out.set(name, val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), data)));
    };
    for (const auto &[name, bytes] : session_trace(s).to_npy()) put(name, bytes);
    trace::Trace encoder;
    encoder.steps = self_attention_records(s);
    if (!encoder.steps.empty())
        for (const auto &[name, bytes] : encoder.to_npy()) put("encoder." + name, bytes);
    return out;
}

// The what-ifs of a beam search in the form the page's Worker gives a decode: {masks: [[step, j], …],
// unmasks: [[step, j], …], pins: [[step, j | weights], …], temperatures: [[step, τ], …]} and the
// Transformer decoder's on one head: headMasks, headUnmasks: [[step, layer, head, j], …], headPins:
// [[step, layer, head, j | weights], …], headOffs, headOns: [[step, layer, head], …]; each key
// optional, applied at each step in that order (as the Worker gives them to a session). The ranges
// (source positions, layers, heads, τ, steps) are the engine's to judge; here only the JS values are.
std::vector<decode::ScheduledWhatIf> beam_what_ifs(const val &what) {
    using Kind = decode::ScheduledWhatIf::Kind;
    std::vector<decode::ScheduledWhatIf> out;
    if (what.isUndefined()) return out;
    const std::string names = "masks, unmasks, pins, temperatures, headMasks, headUnmasks, headPins, headOffs, headOns";
    if (what.typeOf().as<std::string>() != "object" || what.isNull() || what.isArray())
        bad_argument("whatIfs", ": expected {" + names + "}, got " + describe(what));
    const std::pair<const char *, Kind> lists[] = {{"masks", Kind::mask},
                                                   {"unmasks", Kind::unmask},
                                                   {"pins", Kind::pin},
                                                   {"temperatures", Kind::temperature},
                                                   {"headMasks", Kind::head_mask},
                                                   {"headUnmasks", Kind::head_unmask},
                                                   {"headPins", Kind::head_pin},
                                                   {"headOffs", Kind::head_off},
                                                   {"headOns", Kind::head_on}};
    for (const auto &key : own_keys(what))
        if (std::none_of(std::begin(lists), std::end(lists), [&](const auto &l) { return key == l.first; }))
            bad_argument("whatIfs." + key, " is not a what-if of beam (" + names + ")");
    constexpr std::int64_t most = limits::max_what_ifs;
    for (const auto &[name, kind] : lists) {
        const auto list = option(what, name);
        if (!list) continue;
        const std::string field = std::string("whatIfs.") + name;
        // [step, value], or on a head [step, layer, head(, value)]
        const bool on_head = kind >= Kind::head_mask;
        const bool valued = kind != Kind::head_off && kind != Kind::head_on;
        const int length = on_head ? (valued ? 4 : 3) : 2;
        const std::string form =
            on_head ? (valued ? "[step, layer, head, value]" : "[step, layer, head]") : "[step, value]";
        if (!list->isArray()) bad_argument(field, ": expected an array of " + form + ", got " + describe(*list));
        const double count = (*list)["length"].as<double>();
        if (count + static_cast<double>(out.size()) > static_cast<double>(most))
            limit_exceeded(field, ": more than " + std::to_string(most) + " what-ifs", most);
        for (int k = 0; k < static_cast<int>(count); ++k) {
            const val item = (*list)[k];
            const std::string at = field + "[" + std::to_string(k) + "]";
            if (!item.isArray() || item["length"].as<double>() != length)
                bad_argument(at, ": expected " + form + ", got " + describe(item));
            const auto whole = [&](int i) {
                return static_cast<int>(whole_number(item[i], at + "[" + std::to_string(i) + "]", -(1 << 30), 1 << 30));
            };
            decode::ScheduledWhatIf w;
            w.kind = kind;
            w.step = whole(0);
            if (on_head) {
                w.layer = whole(1);
                w.head = whole(2);
            }
            const int last = length - 1;
            const val v = item[last];
            if (kind == Kind::temperature) {
                w.temperature = to_temperature(v, at + "[" + std::to_string(last) + "]");
            } else if ((kind == Kind::pin || kind == Kind::head_pin) && !v.isNumber()) {
                const Vec weights = to_vec(v, at + "[" + std::to_string(last) + "]");
                w.kind = kind == Kind::pin ? Kind::pin_weights : Kind::head_pin_weights;
                w.weights.assign(weights.data(), weights.data() + weights.size());
            } else if (valued)
                w.token = whole(last);
            out.push_back(std::move(w));
        }
    }
    return out;
}

val beam_js(SessionState &s, val width, val what_ifs) {
    if (!width.isNumber()) bad_argument("beam", ": expected a width, got " + describe(width));
    const double k = width.as<double>();
    if (!(k >= 1 && k <= kMaxBeamWidth && k == std::floor(k)))
        bad_argument("beam",
                     ": width must be a whole number from 1 to " + std::to_string(kMaxBeamWidth) + ", got " +
                         number_text(k),
                     kMaxBeamWidth);
    decode::SessionOptions options;
    options.start_id = io::Vocabulary::bos;
    options.end_id = io::Vocabulary::eos;
    options.max_steps = s.session->max_steps(); // the same step limit as the session's greedy steps
    const auto plan = beam_what_ifs(what_ifs);
    const decode::BeamResult result =
        decode::beam_search(s.model->network(), s.session->encoded(), static_cast<int>(k), options, plan);
    const auto &vocab = s.model->target_vocab();
    val nodes = val::array();
    for (const auto &n : result.nodes) {
        val node = val::object();
        node.set("id", n.id);
        node.set("parent", n.parent);
        node.set("depth", n.depth);
        node.set("tokenId", n.token);
        node.set("token", vocab.token(n.token));
        node.set("logProb", n.log_prob);
        node.set("totalLogProb", n.total_log_prob);
        node.set("finished", n.finished);
        node.set("intervened", n.intervened);
        node.set("weights", optional_vec(n.step.attention.weights)); // null without attention
        nodes.call<void>("push", node);
    }
    val beams = val::array();
    for (const auto &path : result.beams) {
        val p = val::array();
        for (int id : path) p.call<void>("push", id);
        beams.call<void>("push", p);
    }
    val scores = val::array();
    for (double score : result.scores) scores.call<void>("push", score);
    val out = val::object();
    out.set("nodes", nodes);
    out.set("beams", beams);
    out.set("scores", scores);
    return out;
}

val decode_text_js(const std::shared_ptr<const Model> &model, val text, val options) {
    return decode_js(model, decode_request(text, options));
}

val record_schema_js(val kind) {
    if (!kind.isString()) bad_argument("recordSchema", ": expected a record kind, got " + describe(kind));
    return record_schema(name_from_js(kind, "recordSchema"));
}

} // namespace
} // namespace apg::wasm

EMSCRIPTEN_BINDINGS(apg_models) {
    using namespace apg::wasm;
    ExportedClass<const Model>("Model")
        .class_function("load", entry<load_js>)
        .method("info", method<info_js>)
#ifdef APG_LENGTH_ACCURACY
        .method("accuracyByLength", method<accuracy_by_length_js>, 1)
#endif
        .method("decode", method<decode_text_js>, 1); // options may be left out
    with_session_methods(ExportedClass<SessionState>("Session"))
        .method("whatIf", method<what_if_js>)
        .method("sourceTokens", method<source_tokens_js>)
        .method("selfAttention", method<self_attention_js>)
        .method("reproduceSelfAttention", method<reproduce_self_attention_js>)
        .method("confidence", method<confidence_js>)
        .method("beam", method<beam_js>, 1) // so may the what-ifs
        .method("exportJson", method<export_json_js>)
        .method("exportNpy", method<export_npy_js>);
    exported("recordSchema", entry<record_schema_js>);
}
