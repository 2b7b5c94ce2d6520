// A character vocabulary of three letters after the four specials, for the checkpoint tests' tiny
// models (tiny_config with source_vocab = target_vocab = 7).
#pragma once

#include "io/vocab.hpp"

namespace apg::test {

inline io::Vocabulary letters() {
    return io::Vocabulary({"<pad>", "<s>", "</s>", "<unk>", "a", "b", "c"}, io::Tokenizer::characters);
}

} // namespace apg::test
