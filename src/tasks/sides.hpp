// The training and held-out sides of a task whose held-out samples are chosen by a hash of what
// they show (scenes by their composition, utterances by their phrase), so that no held-out one was
// ever trained on.
#pragma once

#include <cstddef>
#include <vector>

namespace apg::tasks {

// Calls draw(side_for) until train holds train_count samples and heldout heldout_count. draw takes
// the stream's next candidate, asks side_for(held_out) where it goes, and makes it and pushes it
// there unless that is null: its side is full. A stream with fewer training samples thus passes
// over the training candidates unmade and yields the same held-out samples.
template <class Sample, class Draw>
void fill_sides(std::vector<Sample> &train, std::vector<Sample> &heldout, std::size_t train_count,
                std::size_t heldout_count, Draw &&draw) {
    train.reserve(train_count);
    heldout.reserve(heldout_count);
    const auto side_for = [&](bool held_out) -> std::vector<Sample> * {
        std::vector<Sample> &side = held_out ? heldout : train;
        return side.size() < (held_out ? heldout_count : train_count) ? &side : nullptr;
    };
    while (train.size() < train_count || heldout.size() < heldout_count) draw(side_for);
}

} // namespace apg::tasks
