// Comparing two traces of the same input: where two models' attention weights differ most, and
// how far apart their alignments are on the whole.
#pragma once

#include "core/tensor.hpp"

namespace apg::trace {

struct WeightDifference {
    float value = 0; // max |a(i, j) − b(i, j)| over the common rows and columns
    int row = 0;     // the step i …
    int col = 0;     // … and the source position j where it occurs (the first such cell, row-major)
    float a = 0;     // a(i, j)
    float b = 0;     // b(i, j)
    // The mean over the common rows of the total variation distance ½ Σ_j |a(i, j) − b(i, j)|:
    // 0 when two alignments agree, 1 when at every step they put their weight on different
    // positions. Where the largest difference names one cell, this says how unlike the two are.
    float mean_distance = 0;
};

// a, b: steps × source positions (each model's weights, one row per decoding step). Two models may
// take different numbers of steps, so only the rows both have are compared (and likewise the
// columns). Cells where either weight is not finite are skipped. Throws std::invalid_argument
// naming both shapes when they share no cell.
WeightDifference largest_weight_difference(const Mat &a, const Mat &b);

} // namespace apg::trace
