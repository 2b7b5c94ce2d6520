// A whole seq2seq model against finite differences: every tensor's analytic gradient of the mean
// teacher-forced loss on one batch, checked by test::check_gradient with the composed budget
// (support/gradcheck.hpp explains it).
#pragma once

#include "models/seq2seq.hpp"
#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

namespace apg::test {

// Two pairs of different lengths, so both source and target padding are exercised (pad 0, start 1,
// end 2); its ids fit tiny_config's vocabularies.
inline models::Batch tiny_batch() { return models::make_batch({{4, 5, 3}, {5, 4}}, {{3, 6, 4}, {5}}, 0, 1, 2); }

// Checks every tensor as `c` says (GradCheck::composed(max_checks) checks up to max_checks
// entries of each); returns the analytic pass's result.
inline models::BatchResult check_model_gradients(models::Seq2Seq &model, const models::Batch &batch,
                                                 const GradCheck &c) {
    models::TrainingWorkspace ws;
    models::Parameters grads = models::zeros_like(model.parameters(), model.config());
    const models::BatchResult result = model.forward_backward(batch, &grads, ws);
    auto loss = [&]() {
        models::TrainingWorkspace w;
        return model.forward_backward(batch, nullptr, w).loss;
    };
    auto params = model.tensors();
    auto grad_tensors = models::tensors(grads, model.config());
    REQUIRE(params.size() == grad_tensors.size());
    for (std::size_t t = 0; t < params.size(); ++t)
        check_gradient(params[t].name, params[t].data, grad_tensors[t].data, loss, c);
    return result;
}

inline models::BatchResult check_model_gradients(models::Seq2Seq &model, const models::Batch &batch,
                                                 std::size_t max_checks) {
    return check_model_gradients(model, batch, GradCheck::composed(max_checks));
}

} // namespace apg::test
