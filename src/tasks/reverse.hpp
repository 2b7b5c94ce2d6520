// reverse: a string of 3–15 letters from a–j, typed without spaces ("abcj"), to the same letters
// reversed ("jcba"). Character tokens. Its alignment is the anti-diagonal: a sanity check.
#pragma once

#include "tasks/task.hpp"

namespace apg::tasks {

inline constexpr int reverse_min_length = 3, reverse_max_length = 15;
inline constexpr char reverse_alphabet_first = 'a', reverse_alphabet_last = 'j';

// A string of uniformly drawn length and letters, and the same letters reversed.
Pair draw_reversal(core::Rng &rng);

} // namespace apg::tasks
