// reverse: a string of 3–15 letters from a–j, typed without spaces ("abcj"), to the same letters
// reversed ("jcba"). Character tokens. Its alignment is the anti-diagonal: a sanity check.
#pragma once

#include "train/tasks/task.hpp"

namespace apg::train {

inline constexpr int reverse_min_length = 3, reverse_max_length = 15;
inline constexpr char reverse_alphabet_first = 'a', reverse_alphabet_last = 'j';

TaskData make_reverse_task(std::uint64_t seed, std::size_t train_count = default_train_count,
                           std::size_t heldout_count = default_heldout_count);

} // namespace apg::train
