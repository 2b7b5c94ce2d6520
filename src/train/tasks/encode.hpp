// Task examples as token ids for the trainer, through the task's vocabularies.
#pragma once

#include "io/vocab.hpp"
#include "train/tasks/task.hpp"
#include "train/trainer.hpp"

#include <vector>

namespace apg::train {

// Ids without start / end tokens. Throws std::invalid_argument (the vocabulary's message) if an
// example holds a token the vocabulary lacks.
EncodedPairs encode_examples(const std::vector<Example> &examples, const io::Vocabulary &source_vocab,
                             const io::Vocabulary &target_vocab);

} // namespace apg::train
