// A trained model as shipped: the network, both vocabularies and what is known about its
// training, saved as one .safetensors file (tensors by module path; __metadata__ holds the
// config, the vocabularies and the training record as JSON).
#pragma once

#include "io/vocab.hpp"
#include "models/seq2seq.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apg::io {

// One decoded input: tokens, the chosen output and the alignment (attention weights).
struct Translation {
    std::vector<std::string> source_tokens; // n
    std::vector<std::string> output_tokens; // m (without the end token)
    std::string output_text;                // output tokens joined the vocabulary's way
    bool ended = false;                     // the end token was chosen within the step limit
    Mat weights;                            // steps × n: row i = attention weights of step i
    std::vector<models::DecoderStep> steps; // every named intermediate of every step
};

class Model {
  public:
    // Throws InputError(bad_argument, details "field" = "config") when the vocabularies' sizes are
    // not the config's: the one check of that, which load() reports as the file's error.
    Model(models::Seq2Seq network, Vocabulary source, Vocabulary target,
          nlohmann::json training = nlohmann::json::object());

    const models::Seq2Seq &network() const { return network_; }
    models::Seq2Seq &network() { return network_; }
    const models::ModelConfig &config() const { return network_.config(); }
    const Vocabulary &source_vocab() const { return source_; }
    const Vocabulary &target_vocab() const { return target_; }
    // How it was trained: command, seeds, steps, held-out exact match, … (free-form JSON object).
    const nlohmann::json &training() const { return training_; }
    nlohmann::json &training() { return training_; }

    // Tokenizes and checks the input; throws InputError: bad_argument (details "name": "encoder")
    // for a model of images (conv encoder); too_long (details "length", "limit",
    // "unit": "characters") for more than limits::max_input_chars code points, before anything
    // else; bad_argument for text that is not UTF-8; empty_input and unknown_token from
    // Vocabulary::encode; too_long ("unit": "tokens") for more tokens than max_source_len.
    std::vector<int> encode_source(std::string_view text) const;
    // Greedy decoding with every step kept.
    Translation translate(std::string_view text) const;

    // The .safetensors bytes of this model.
    std::vector<std::uint8_t> save() const;
    // Reads a file made by save(). Throws FileError(bad_checkpoint, "checkpoint: …") naming the
    // problem, with details "field" (the metadata string, config field or tensor to blame) and
    // "limit" where one was passed: bad container, a JSON text over the size or depth limits or
    // with a key twice, a config field that is not an integer within its bounds, bad
    // vocabularies, missing / extra / misshaped / non-finite tensors. The config is held against
    // the file's tensors before the model is allocated, so what a load allocates is bounded by
    // the file's size. Never returns a partly loaded model.
    static Model load(std::span<const std::uint8_t> bytes);

  private:
    models::Seq2Seq network_;
    Vocabulary source_, target_;
    nlohmann::json training_;
};

} // namespace apg::io
