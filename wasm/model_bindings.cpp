// The embind surface for trained models (declared for TypeScript in playground.d.ts):
// Model.load(bytes) → model.info(), model.decode(text) → a decoding session with step, force,
// back, reset, run, beam, trace and exports. Conversion only: the work is done by
// io::Model and decode::DecodeSession; C++ exceptions reach JS as Error.
#include "convert.hpp"
#include "decode/record_schema.hpp"
#include "decode/session.hpp"
#include "decode/transformer_trace.hpp"
#include "io/model.hpp"
#include "js_error.hpp"
#include "step_record.hpp"
#include "trace/trace.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <memory>
#include <string>
#include <vector>

namespace apg::wasm {
namespace {

using io::Model;

struct ModelHandle {
    std::shared_ptr<const Model> model;
};

// A session keeps its model alive: JS may delete the model first.
struct SessionHandle {
    std::shared_ptr<const Model> model;
    std::shared_ptr<decode::DecodeSession> session;
    std::vector<std::string> source_tokens;
    val target_tokens = val::undefined(); // the target vocabulary as a JS array, for step records
};

val strings_to_js(const std::vector<std::string> &items) {
    val out = val::array();
    for (const auto &s : items) out.call<void>("push", s);
    return out;
}

val vocab_to_js(const io::Vocabulary &vocab) {
    val out = val::array();
    for (int i = 0; i < vocab.size(); ++i) out.call<void>("push", vocab.token(i));
    return out;
}

val json_to_js(const nlohmann::json &j) { return val::global("JSON").call<val>("parse", j.dump()); }

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

} // namespace

// Declared in step_record.hpp; built here, where code is compiled for size.
const std::string &step_schema_json() {
    static const std::string json = [] {
        nlohmann::json fields = nlohmann::json::array();
        for (const auto &f : decode::record::decoder_step) {
            nlohmann::json j;
            j["name"] = camel_case(f.name);
            j["trace"] = f.name;
            j["type"] = decode::record::type_names[static_cast<int>(f.type)];
            j["shape"] = nlohmann::json::array();
            for (std::size_t at = 0; at < f.shape.size();) {
                const std::size_t end = std::min(f.shape.find(' ', at), f.shape.size());
                j["shape"].push_back(f.shape.substr(at, end - at));
                at = end + 1;
            }
            j["optional"] = f.optional;
            j["doc"] = f.doc;
            if (f.type == decode::record::Type::label)
                j["labels"] = std::vector<std::string>(f.labels.begin(), f.labels.end());
            if (f.type == decode::record::Type::token) j["of"] = camel_case(f.of);
            fields.push_back(std::move(j));
        }
        return fields.dump();
    }();
    return json;
}

namespace {

val step_record_schema_js() { return val::global("JSON").call<val>("parse", step_schema_json()); }

// ---- Model ----

val load_js(val bytes) {
    if (!bytes.instanceof (val::global("Uint8Array")))
        throw std::invalid_argument("Model.load: expected the checkpoint as a Uint8Array, got " + describe(bytes));
    std::vector<std::uint8_t> data(bytes["length"].as<std::size_t>());
    // One bulk copy into the wasm memory (the view is taken after the allocation).
    val(emscripten::typed_memory_view(data.size(), data.data())).call<void>("set", bytes);
    return val(ModelHandle{std::make_shared<const Model>(Model::load(data))});
}

val info_js(const ModelHandle &h) {
    const Model &m = *h.model;
    const auto &c = m.config();
    val out = val::object();
    out.set("task", c.task);
    out.set("score", std::string(attention::name(c.score)));
    out.set("style", std::string(models::name(c.style)));
    val dims = val::object();
    dims.set("embedding", c.embedding);
    dims.set("encoder", std::string(models::name(c.encoder)));
    dims.set("encoderHidden", c.encoder_hidden);
    dims.set("heads", c.encoder == models::EncoderKind::transformer ? val(c.heads) : val::null());
    dims.set("layers", c.encoder == models::EncoderKind::transformer ? val(c.layers) : val::null());
    dims.set("ffHidden", c.encoder == models::EncoderKind::transformer ? val(c.ff_hidden) : val::null());
    dims.set("bidirectional", c.bidirectional);
    dims.set("encoderState", c.encoder_state());
    dims.set("decoderHidden", c.decoder_hidden);
    dims.set("attentionDim", c.attention_dim);
    dims.set("maxSourceLen", c.max_source_len);
    dims.set("maxTargetLen", c.max_target_len);
    out.set("dims", dims);
    out.set("sourceTokenizer", std::string(io::tokenizer_name(m.source_vocab().tokenizer())));
    out.set("targetTokenizer", std::string(io::tokenizer_name(m.target_vocab().tokenizer())));
    out.set("srcVocab", vocab_to_js(m.source_vocab()));
    out.set("tgtVocab", vocab_to_js(m.target_vocab()));
    const auto &training = m.training();
    const auto accuracy = training.find("heldout_exact_match");
    out.set("heldoutExactMatch",
            accuracy != training.end() && accuracy->is_number() ? val(accuracy->get<double>()) : val::null());
    out.set("training", json_to_js(training));
    return out;
}

int option_int(const val &options, const char *name, int fallback, int lo, int hi) {
    if (!options.hasOwnProperty(name) || options[name].isUndefined()) return fallback;
    const val v = options[name];
    if (!v.isNumber()) throw std::invalid_argument(std::string("options.") + name + ": expected a number");
    const double d = v.as<double>();
    if (!(d >= lo && d <= hi && d == static_cast<int>(d)))
        throw std::invalid_argument(std::string("options.") + name + ": expected a whole number from " +
                                    std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int>(d);
}

val decode_js(const ModelHandle &h, val text, val options_js) {
    if (!text.isString())
        throw std::invalid_argument("decode: expected the input text as a string, got " + describe(text));
    const val options = options_js.isUndefined() ? val::object() : options_js;
    if (options.typeOf().as<std::string>() != "object" || options.isNull())
        throw std::invalid_argument("decode: options must be an object");
    const Model &m = *h.model;
    const std::string input = text.as<std::string>();
    std::vector<int> ids = m.encode_source(input);
    decode::SessionOptions session_options;
    session_options.start_id = io::Vocabulary::bos;
    session_options.end_id = io::Vocabulary::eos;
    session_options.top_k = option_int(options, "topK", 5, 1, m.target_vocab().size());
    session_options.max_steps = option_int(options, "maxSteps", 0, 0, 4096);
    if (options.hasOwnProperty("temperature") && !options["temperature"].isUndefined()) {
        if (!options["temperature"].isNumber()) throw std::invalid_argument("options.temperature: expected a number");
        session_options.attention.temperature = options["temperature"].as<float>();
    }
    SessionHandle s;
    s.model = h.model;
    s.source_tokens = m.source_vocab().tokenize(input);
    s.target_tokens = vocab_to_js(m.target_vocab());
    s.session = std::make_shared<decode::DecodeSession>(m.network(), std::move(ids), session_options);
    return val(std::move(s));
}

// ---- Session ----

val step_js(SessionHandle &s) {
    const auto &step = s.session->step();
    return step_to_js(s.target_tokens, step, static_cast<int>(s.session->steps().size()) - 1);
}

val force_js(SessionHandle &s, val token) {
    if (!token.isNumber()) throw std::invalid_argument("force: expected a token id, got " + describe(token));
    const double id = token.as<double>();
    if (id != static_cast<int>(id)) throw std::invalid_argument("force: token id must be a whole number");
    const auto &step = s.session->force(static_cast<int>(id));
    return step_to_js(s.target_tokens, step, static_cast<int>(s.session->steps().size()) - 1);
}

val back_js(SessionHandle &s) { return val(s.session->back()); }
val reset_js(SessionHandle &s) {
    s.session->reset();
    return val::undefined();
}
val done_js(SessionHandle &s) { return val(s.session->done()); }
val length_js(SessionHandle &s) { return val(static_cast<int>(s.session->steps().size())); }

val run_js(SessionHandle &s) {
    const int before = static_cast<int>(s.session->steps().size());
    s.session->run();
    val out = val::array();
    const auto &steps = s.session->steps();
    for (int i = before; i < static_cast<int>(steps.size()); ++i)
        out.call<void>("push", step_to_js(s.target_tokens, steps[i], i));
    return out;
}

val record_js(SessionHandle &s, val index) {
    const auto &steps = s.session->steps();
    if (!index.isNumber()) throw std::invalid_argument("record: expected a step index");
    const double i = index.as<double>();
    if (!(i >= 0 && i < static_cast<double>(steps.size()) && i == static_cast<int>(i)))
        throw std::invalid_argument("record: step " + std::to_string(i) + " does not exist (the session has " +
                                    std::to_string(steps.size()) + " steps)");
    return step_to_js(s.target_tokens, steps[static_cast<int>(i)], static_cast<int>(i));
}

val trace_js(SessionHandle &s) {
    val out = val::array();
    const auto &steps = s.session->steps();
    for (int i = 0; i < static_cast<int>(steps.size()); ++i)
        out.call<void>("push", step_to_js(s.target_tokens, steps[i], i));
    return out;
}

val source_tokens_js(SessionHandle &s) { return strings_to_js(s.source_tokens); }
val encoder_states_js(SessionHandle &s) { return to_js(s.session->encoded().states); }

// The transformer encoder's layers (kind "self_attention"); none for a GRU encoder.
std::vector<trace::StepRecord> self_attention_records(const SessionHandle &s) {
    const auto &cache = s.session->encoded().self_attention;
    return cache ? decode::to_records(*cache) : std::vector<trace::StepRecord>{};
}

val self_attention_js(SessionHandle &s) {
    val out = val::array();
    for (const auto &r : self_attention_records(s)) out.call<void>("push", record_to_js(r));
    return out;
}

std::vector<std::string> output_tokens(const SessionHandle &s) {
    std::vector<std::string> out;
    for (int id : s.session->output_ids()) out.push_back(s.model->target_vocab().token(id));
    return out;
}
val output_tokens_js(SessionHandle &s) { return strings_to_js(output_tokens(s)); }
val output_text_js(SessionHandle &s) { return val(s.model->target_vocab().join(s.session->output_ids())); }

trace::Trace session_trace(const SessionHandle &s) {
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
val export_json_js(SessionHandle &s) {
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
val export_npy_js(SessionHandle &s) {
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

val beam_js(SessionHandle &s, val width) {
    if (!width.isNumber()) throw std::invalid_argument("beam: expected a width");
    const double k = width.as<double>();
    if (!(k >= 1 && k <= 16 && k == static_cast<int>(k)))
        throw std::invalid_argument("beam: width must be a whole number from 1 to 16");
    decode::SessionOptions options;
    options.start_id = io::Vocabulary::bos;
    options.end_id = io::Vocabulary::eos;
    const decode::BeamResult result =
        decode::beam_search(s.model->network(), s.session->encoded(), static_cast<int>(k), options);
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
        node.set("weights", to_js(n.step.attention.weights));
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

// Every entry point runs its body inside guarded(): exceptions become JS Errors.
val Model_load(val bytes) { return guarded(load_js, bytes); }
val Model_info(ModelHandle &h) {
    return guarded([&] { return info_js(h); });
}
val Model_decode(ModelHandle &h, val text, val options) {
    return guarded([&h](val t, val o) { return decode_js(h, t, o); }, text, options);
}
val stepRecordSchema() { return guarded(step_record_schema_js); }
val Model_decode_plain(ModelHandle &h, val text) {
    return guarded([&h](val t) { return decode_js(h, t, val::undefined()); }, text);
}

template <val (*F)(SessionHandle &)> val session_call(SessionHandle &s) {
    return guarded([&s] { return F(s); });
}
template <val (*F)(SessionHandle &, val)> val session_call_arg(SessionHandle &s, val arg) {
    return guarded([&s](val a) { return F(s, a); }, arg);
}

} // namespace
} // namespace apg::wasm

EMSCRIPTEN_BINDINGS(apg_models) {
    using namespace apg::wasm;
    emscripten::class_<ModelHandle>("Model")
        .class_function("load", &Model_load)
        .function("info", &Model_info)
        .function("decode", &Model_decode)
        .function("decode", &Model_decode_plain);
    emscripten::class_<SessionHandle>("Session")
        .function("step", &session_call<step_js>)
        .function("force", &session_call_arg<force_js>)
        .function("back", &session_call<back_js>)
        .function("reset", &session_call<reset_js>)
        .function("run", &session_call<run_js>)
        .function("done", &session_call<done_js>)
        .function("length", &session_call<length_js>)
        .function("record", &session_call_arg<record_js>)
        .function("trace", &session_call<trace_js>)
        .function("sourceTokens", &session_call<source_tokens_js>)
        .function("encoderStates", &session_call<encoder_states_js>)
        .function("selfAttention", &session_call<self_attention_js>)
        .function("outputTokens", &session_call<output_tokens_js>)
        .function("outputText", &session_call<output_text_js>)
        .function("beam", &session_call_arg<beam_js>)
        .function("exportJson", &session_call<export_json_js>)
        .function("exportNpy", &session_call<export_npy_js>);
    emscripten::function("stepRecordSchema", &stepRecordSchema);
    restore_stack_on_throw_static("Model", "load");
    for (const char *m : {"info", "decode"}) restore_stack_on_throw_method("Model", m);
    for (const char *m :
         {"step", "force", "back", "reset", "run", "done", "length", "record", "trace", "sourceTokens", "encoderStates",
          "selfAttention", "outputTokens", "outputText", "beam", "exportJson", "exportNpy"})
        restore_stack_on_throw_method("Session", m);
}
