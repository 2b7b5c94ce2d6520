#include "io/model.hpp"

#include "io/checkpoint.hpp"

#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>

namespace apg::io {

namespace {

constexpr const char *format_name = "apg-seq2seq-1";

std::string shape_text(const std::vector<std::int64_t> &shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

[[noreturn]] void reject(const std::string &what) { throw std::runtime_error("checkpoint: " + what); }

const std::string &metadata(const Checkpoint &c, const char *key) {
    auto it = c.metadata.find(key);
    if (it == c.metadata.end()) reject(std::string("missing metadata field \"") + key + "\"");
    return it->second;
}

nlohmann::json parse_json(const Checkpoint &c, const char *key) {
    try {
        // Parsed from a char range like the header (checkpoint.cpp), so the wasm build carries one
        // instantiation of nlohmann's parser instead of two (~8 KB).
        const std::string &text = metadata(c, key);
        return nlohmann::json::parse(text.data(), text.data() + text.size());
    } catch (const nlohmann::json::exception &) {
        reject(std::string("metadata field \"") + key + "\" is not valid JSON");
    }
}

} // namespace

Model::Model(models::Seq2Seq network, Vocabulary source, Vocabulary target, nlohmann::json training)
    : network_(std::move(network)), source_(std::move(source)), target_(std::move(target)),
      training_(std::move(training)) {
    if (source_.size() != config().source_vocab || target_.size() != config().target_vocab)
        throw std::invalid_argument("model: vocabularies of " + std::to_string(source_.size()) + " and " +
                                    std::to_string(target_.size()) + " tokens do not fit a config with " +
                                    std::to_string(config().source_vocab) + " and " +
                                    std::to_string(config().target_vocab));
}

std::vector<int> Model::encode_source(std::string_view text) const {
    std::vector<int> ids = source_.encode(text); // throws for empty text and unknown tokens
    if (static_cast<int>(ids.size()) > config().max_source_len)
        throw std::invalid_argument("input has " + std::to_string(ids.size()) + " tokens, this model accepts at most " +
                                    std::to_string(config().max_source_len));
    return ids;
}

Translation Model::translate(std::string_view text) const {
    Translation t;
    const std::vector<int> ids = encode_source(text);
    for (int id : ids) t.source_tokens.push_back(source_.token(id));
    const models::EncoderOutput encoded = network_.encode(ids);
    t.steps = network_.greedy(encoded, Vocabulary::bos, Vocabulary::eos);
    t.weights.resize(static_cast<Eigen::Index>(t.steps.size()), static_cast<Eigen::Index>(ids.size()));
    std::vector<int> output;
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        t.weights.row(static_cast<Eigen::Index>(i)) = t.steps[i].attention.weights.transpose();
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
    if (metadata(c, "format") != format_name) reject("format \"" + metadata(c, "format") + "\" is not " + format_name);
    models::ModelConfig config;
    Vocabulary source, target;
    try {
        config = models::ModelConfig::from_json(parse_json(c, "config"));
    } catch (const std::invalid_argument &e) {
        reject(e.what());
    }
    try {
        source = Vocabulary::from_json(parse_json(c, "source_vocab"));
        target = Vocabulary::from_json(parse_json(c, "target_vocab"));
    } catch (const std::runtime_error &) {
        throw;
    } catch (const std::exception &e) {
        reject(std::string("bad vocabulary: ") + e.what());
    }
    if (source.size() != config.source_vocab || target.size() != config.target_vocab)
        reject("the vocabularies have " + std::to_string(source.size()) + " and " + std::to_string(target.size()) +
               " tokens, the config says " + std::to_string(config.source_vocab) + " and " +
               std::to_string(config.target_vocab));
    nlohmann::json training = c.metadata.count("training") ? parse_json(c, "training") : nlohmann::json::object();

    // Fill a zero model of the config's shapes, tensor by tensor; any mismatch rejects the file.
    models::Parameters params = models::zeros_like(models::init_parameters(config, 0), config);
    std::set<std::string> expected;
    for (models::TensorRef &t : models::tensors(params, config)) {
        expected.insert(t.name);
        auto it = c.tensors.find(t.name);
        if (it == c.tensors.end()) reject("missing tensor \"" + t.name + "\" " + shape_text(t.shape));
        if (it->second.shape != t.shape)
            reject("tensor \"" + t.name + "\" has shape " + shape_text(it->second.shape) + ", the config needs " +
                   shape_text(t.shape));
        if (it->second.data.size() != t.data.size())
            reject("tensor \"" + t.name + "\" holds " + std::to_string(it->second.data.size()) + " values");
        for (float x : it->second.data)
            if (!std::isfinite(x)) reject("tensor \"" + t.name + "\" holds a non-finite value");
        std::memcpy(t.data.data(), it->second.data.data(), t.data.size() * sizeof(float));
    }
    for (const auto &[name, tensor] : c.tensors)
        if (!expected.count(name)) reject("unexpected tensor \"" + name + "\" for this config");
    return Model(models::Seq2Seq(config, std::move(params)), std::move(source), std::move(target), std::move(training));
}

} // namespace apg::io
