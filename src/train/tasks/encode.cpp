#include "train/tasks/encode.hpp"

namespace apg::train {

EncodedPairs encode_examples(const std::vector<Example> &examples, const io::Vocabulary &source_vocab,
                             const io::Vocabulary &target_vocab) {
    EncodedPairs pairs;
    pairs.sources.reserve(examples.size());
    pairs.targets.reserve(examples.size());
    for (const auto &example : examples) {
        pairs.sources.push_back(source_vocab.encode(example.source));
        pairs.targets.push_back(target_vocab.encode(example.target));
    }
    return pairs;
}

} // namespace apg::train
