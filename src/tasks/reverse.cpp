#include "tasks/reverse.hpp"

namespace apg::tasks {

Pair draw_reversal(core::Rng &rng) {
    // Lengths uniform over 3..15; repeats of the short ones (only 1,000 strings of length 3) are
    // dropped by assemble, so long strings are a little more common in the data.
    const int letters = reverse_alphabet_last - reverse_alphabet_first + 1;
    const auto length = reverse_min_length + static_cast<int>(rng.below(reverse_max_length - reverse_min_length + 1));
    std::string source;
    for (int i = 0; i < length; ++i)
        source += static_cast<char>(reverse_alphabet_first + static_cast<int>(rng.below(letters)));
    return {source, std::string(source.rbegin(), source.rend())};
}

} // namespace apg::tasks
