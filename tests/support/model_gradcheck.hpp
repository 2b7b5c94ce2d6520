// A whole seq2seq model against finite differences: every tensor's analytic gradient of the mean
// teacher-forced loss on one batch, checked by test::check_gradient (tolerances explained there).
#pragma once

#include "models/seq2seq.hpp"
#include "support/finite_difference.hpp"

#include <doctest/doctest.h>

namespace apg::test {

// Checks up to max_checks entries of every tensor; returns the analytic pass's result.
inline models::BatchResult check_model_gradients(models::Seq2Seq &model, const models::Batch &batch,
                                                 std::size_t max_checks) {
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
        check_gradient(params[t].name, params[t].data, grad_tensors[t].data, loss, max_checks);
    return result;
}

} // namespace apg::test
