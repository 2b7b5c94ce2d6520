// How large a weight cosine attention can give at all. A cosine score lies in [−1, 1] (times the
// learned scale g of scaled cosine), so with n unmasked keys the best a key can do is score g
// while every other scores −g: its weight is e^g / (e^g + (n − 1) e^−g) = e^{2g} / (e^{2g} + n − 1).
// With g = 1 and 10 keys that is 0.45: plain cosine attention cannot focus on one token, which is
// why its models trail the others.
#pragma once

namespace apg::attention {

// The bound for n keys and scale g (the sign of g does not matter: the range is [−|g|, |g|]).
// Throws InputError(bad_argument) with details "name" for n < 1 or a scale that is not finite.
double cosine_weight_bound(int n, double scale = 1.0);

} // namespace apg::attention
