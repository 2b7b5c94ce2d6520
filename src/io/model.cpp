#include "io/model.hpp"

#include "core/shape_text.hpp"
#include "io/checkpoint.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace apg::io {

namespace {

constexpr const char *format_name = "apg-seq2seq-1";

void check_vocabularies(const Vocabulary &source, const Vocabulary &target, const models::ModelConfig &config) {
    if (source.size() != config.source_vocab || target.size() != config.target_vocab)
        throw InputError(ErrorCode::bad_argument,
                         "the vocabularies have " + std::to_string(source.size()) + " and " +
                             std::to_string(target.size()) + " tokens, the config says " +
                             std::to_string(config.source_vocab) + " and " + std::to_string(config.target_vocab),
                         {{"field", std::string("config")}});
}

// The throws are out of line with plain arguments, so each call site stays small (the wasm build
// has a size budget).
[[noreturn]] void reject(const std::string &what, const std::string &field) {
    throw FileError(ErrorCode::bad_checkpoint, "checkpoint: " + what, {{"field", field}});
}

// `e` (from reading the metadata string `field`) as a checkpoint error: its message after
// `prefix`, its details, with "field" first: its own (the config's "embedding") or `field`.
[[noreturn]] void reject(const std::exception &e, const std::string &prefix, const std::string &field) {
    Details details;
    if (const auto *coded = dynamic_cast<const Error *>(&e)) details = coded->details();
    if (details.empty() || details.front().first != "field") details.insert(details.begin(), {"field", field});
    throw FileError(ErrorCode::bad_checkpoint, "checkpoint: " + prefix + e.what(), std::move(details));
}

[[noreturn]] void too_long(std::size_t length, int limit, const std::string &message, const char *unit) {
    throw InputError(
        ErrorCode::too_long, message,
        {{"length", static_cast<std::int64_t>(length)}, {"limit", std::int64_t{limit}}, {"unit", std::string(unit)}});
}

const std::string &metadata(const Checkpoint &c, const char *key) {
    auto it = c.metadata.find(key);
    if (it == c.metadata.end()) reject(std::string("missing metadata field \"") + key + "\"", key);
    return it->second;
}

} // namespace

Model::Model(models::Seq2Seq network, Vocabulary source, Vocabulary target, nlohmann::json training)
    : network_(std::move(network)), source_(std::move(source)), target_(std::move(target)),
      training_(std::move(training)) {
    check_vocabularies(source_, target_, config());
}

std::vector<int> Model::encode_source(std::string_view text) const {
    if (config().encoder == models::EncoderKind::conv)
        throw InputError(ErrorCode::bad_argument, "this model reads images, not text (task " + config().task + ")",
                         {{"name", std::string("encoder")}});
    const std::size_t length = count_code_points(text);
    if (length > static_cast<std::size_t>(limits::max_input_chars))
        too_long(length, limits::max_input_chars,
                 "input has " + std::to_string(length) + " characters, at most " +
                     std::to_string(limits::max_input_chars) + " are accepted",
                 "characters");
    std::vector<int> ids = source_.encode(text); // throws for empty text and unknown tokens
    if (static_cast<int>(ids.size()) > config().max_source_len)
        too_long(ids.size(), config().max_source_len,
                 "input has " + std::to_string(ids.size()) + " tokens, this model accepts at most " +
                     std::to_string(config().max_source_len),
                 "tokens");
    return ids;
}

Translation Model::translate(std::string_view text) const {
    Translation t;
    const std::vector<int> ids = encode_source(text);
    for (int id : ids) t.source_tokens.push_back(source_.token(id));
    const models::EncoderOutput encoded = network_.encode(ids);
    t.steps = network_.greedy(encoded, Vocabulary::bos, Vocabulary::eos);
    // A model without attention has no weights: steps × 0.
    const bool attends = config().score != attention::ScoreKind::none;
    t.weights.resize(static_cast<Eigen::Index>(t.steps.size()), attends ? static_cast<Eigen::Index>(ids.size()) : 0);
    std::vector<int> output;
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        if (attends) t.weights.row(static_cast<Eigen::Index>(i)) = t.steps[i].attention.weights.transpose();
        Eigen::Index best;
        t.steps[i].probs.maxCoeff(&best);
        if (best == Vocabulary::eos) {
            t.ended = true;
            break;
        }
        output.push_back(static_cast<int>(best));
        t.output_tokens.push_back(target_.token(static_cast<int>(best)));
    }
    t.output_text = target_.join(output);
    return t;
}

std::vector<std::uint8_t> Model::save() const {
    Checkpoint c;
    models::Seq2Seq copy = network_; // tensors() needs mutable views; the copy keeps this method const
    for (const models::TensorRef &t : copy.tensors())
        c.tensors[t.name] = NamedTensor{t.shape, std::vector<float>(t.data.begin(), t.data.end())};
    c.metadata["format"] = format_name;
    c.metadata["config"] = config().to_json().dump();
    c.metadata["source_vocab"] = source_.to_json().dump();
    c.metadata["target_vocab"] = target_.to_json().dump();
    c.metadata["training"] = training_.dump();
    return save_safetensors(c);
}

Model Model::load(std::span<const std::uint8_t> bytes) {
    const Checkpoint c = load_safetensors(bytes); // checks the container itself
    if (metadata(c, "format") != format_name)
        reject("format " + quote(metadata(c, "format")) + " is not " + format_name, "format");
    // parse_json and metadata() name the field in their own errors; what the readers throw is
    // given the field here.
    models::ModelConfig config;
    const nlohmann::json config_json = parse_json(metadata(c, "config"), "config");
    try {
        config = models::ModelConfig::from_json(config_json);
    } catch (const std::exception &e) {
        reject(e, "", "config");
    }
    Vocabulary vocabularies[2];
    const char *vocabulary_keys[2] = {"source_vocab", "target_vocab"};
    for (int side = 0; side < 2; ++side) {
        const char *key = vocabulary_keys[side];
        const nlohmann::json j = parse_json(metadata(c, key), key);
        try {
            vocabularies[side] = Vocabulary::from_json(j);
        } catch (const std::exception &e) {
            reject(e, "metadata field \"" + std::string(key) + "\": ", key);
        }
    }
    Vocabulary &source = vocabularies[0], &target = vocabularies[1];
    nlohmann::json training =
        c.metadata.count("training") ? parse_json(metadata(c, "training"), "training") : nlohmann::json::object();
    if (!training.is_object()) reject("metadata field \"training\" must be a JSON object", "training");

    // The vocabularies first: a config whose sizes disagree with them names that, not the embedding
    // tensor the sizes then disagree with.
    try {
        check_vocabularies(source, target, config);
    } catch (const InputError &e) {
        reject(e, "", "config");
    }
    // The file's tensors against the config's, before anything of the config's size is allocated:
    // a config that asks for more than the file holds is refused here, at no cost.
    const std::vector<models::TensorShape> shapes = models::tensor_shapes(config);
    for (const models::TensorShape &t : shapes) {
        auto it = c.tensors.find(t.name);
        if (it == c.tensors.end()) reject("missing tensor " + quote(t.name) + " " + core::shape_text(t.shape), t.name);
        if (it->second.shape != t.shape)
            reject("tensor " + quote(t.name) + " has shape " + core::shape_text(it->second.shape) +
                       ", the config needs " + core::shape_text(t.shape),
                   t.name);
    }
    // Every expected name was found and names are distinct on both sides, so more tensors in the
    // file means some are not the config's.
    if (c.tensors.size() != shapes.size())
        for (const auto &entry : c.tensors) {
            const std::string &name = entry.first;
            if (std::none_of(shapes.begin(), shapes.end(), [&](const auto &t) { return t.name == name; }))
                reject("unexpected tensor " + quote(name) + " for this config", name);
        }

    // The page's module links no Transformer decoder (models/transformer_decoder.hpp): the file is
    // sound, so the message says which module reads it.
    if (config.decoder == models::DecoderKind::transformer && !models::transformer_decoding)
        throw FileError(ErrorCode::bad_checkpoint,
                        "checkpoint: a Transformer decoder, which this module does not include: load it with the "
                        "trainer module",
                        {{"field", std::string("decoder")}, {"module", std::string("trainer")}});
    // Fill a zero model of the config's shapes, tensor by tensor (load_safetensors has checked that
    // every value is finite). Not a random initialisation overwritten: that would link every
    // encoder's initialiser (the audio and conv ones too) into the page's module.
    models::Parameters params = models::zeros(config);
    for (models::TensorRef &t : models::tensors(params, config)) {
        const NamedTensor &file = c.tensors.at(t.name);
        if (file.data.size() != t.data.size()) throw std::logic_error("model: tensor_shapes differs from tensors()");
        std::memcpy(t.data.data(), file.data.data(), t.data.size() * sizeof(float));
    }
    return Model(models::Seq2Seq(config, std::move(params)), std::move(source), std::move(target), std::move(training));
}

} // namespace apg::io
