#include "train/tasks/reverse.hpp"

#include "train/tasks/assemble.hpp"

#include <algorithm>

namespace apg::train {

TaskData make_reverse_task(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count) {
    core::Rng rng(seed);
    detail::TaskSpec spec;
    spec.name = "reverse";
    spec.train_count = train_count;
    spec.heldout_count = heldout_count;
    spec.source_tokenizer = spec.target_tokenizer = io::Tokenizer::characters;
    const int letters = reverse_alphabet_last - reverse_alphabet_first + 1;
    return detail::assemble(spec, rng, [&](core::Rng &r) {
        // Lengths uniform over 3..15; repeats of the short ones (only 1,000 strings of length 3)
        // are dropped by assemble, so long strings are a little more common in the data.
        const auto length = reverse_min_length + static_cast<int>(r.below(reverse_max_length - reverse_min_length + 1));
        std::string source;
        for (int i = 0; i < length; ++i)
            source += static_cast<char>(reverse_alphabet_first + static_cast<int>(r.below(letters)));
        return detail::Pair{source, std::string(source.rbegin(), source.rend())};
    });
}

} // namespace apg::train
