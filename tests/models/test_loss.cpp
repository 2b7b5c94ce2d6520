// The model's training loss and its gradient on near-certain predictions, against a double
// reference: the loss curves go down to ~1e-6 per token, where float32's −log p_y and p_y − 1
// (p_y ≈ 1) keep almost none of their digits.
#include "models/seq2seq.hpp"

#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace apg;
using namespace apg::models;

TEST_CASE("the teacher-forced loss and the output bias gradient are exact on a near-certain prediction") {
    for (const float margin : {12.0f, 14.0f, 17.0f}) {
        CAPTURE(margin);
        Seq2Seq model(testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau), 3);
        // out.w = 0, so every step's logits are out.b; the targets are empty, so every target token
        // is the end token (2), which out.b favours by `margin` over the next logit.
        DecoderParams &d = model.parameters().decoder;
        d.out_w.setZero();
        d.out_b << -2.0f, 0.5f, margin + 0.5f, -1.0f, 0.0f, -4.0f, 0.25f;
        const Batch batch = make_batch({{4, 5, 3}, {5, 4}}, {{}, {}}, 0, 1, 2);

        double sum = 0;
        for (float z : d.out_b) sum += std::exp(static_cast<double>(z) - d.out_b[2]);
        const double want_loss = std::log(sum); // logsumexp(z) − z_y
        std::vector<double> want_grad;          // softmax(z) − onehot(y), the mean over the 2 tokens
        for (Eigen::Index i = 0; i < d.out_b.size(); ++i)
            want_grad.push_back(std::exp(static_cast<double>(d.out_b[i]) - d.out_b[2]) / sum - (i == 2 ? 1.0 : 0.0));

        Parameters grads = zeros_like(model.parameters(), model.config());
        TrainingWorkspace ws;
        const BatchResult result = model.forward_backward(batch, &grads, ws);
        REQUIRE(result.tokens == 2);
        CHECK(std::abs(result.loss - want_loss) / want_loss < 1e-6);
        for (Eigen::Index i = 0; i < d.out_b.size(); ++i) {
            CAPTURE(i);
            CHECK(std::abs(grads.decoder.out_b[i] - want_grad[static_cast<std::size_t>(i)]) /
                      std::abs(want_grad[static_cast<std::size_t>(i)]) <
                  1e-5);
        }
    }
}
