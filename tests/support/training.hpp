// Helpers of the training tests: the special tokens of the shipped vocabularies, a model's
// parameters as one list (to compare two trainings bit for bit) and the name a coded error gives.
#pragma once

#include "core/error.hpp"
#include "io/vocab.hpp"
#include "models/seq2seq.hpp"
#include "train/trainer.hpp"

#include <string>
#include <variant>
#include <vector>

namespace apg::test {

inline constexpr train::SpecialTokens kTokens{io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos};

// Every parameter of `network`, tensor after tensor.
inline std::vector<float> flat(const models::Seq2Seq &network) {
    std::vector<float> out;
    auto &params = const_cast<models::Seq2Seq &>(network); // tensors() views; nothing is written
    for (const auto &r : params.tensors()) out.insert(out.end(), r.data.begin(), r.data.end());
    return out;
}

// The "name" detail of a coded error ("" when it has none).
inline std::string detail_name(const Error &e) {
    for (const auto &[k, v] : e.details())
        if (k == "name") return std::get<std::string>(v);
    return "";
}

} // namespace apg::test
