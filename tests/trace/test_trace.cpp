#include "trace/trace.hpp"

#include <doctest/doctest.h>
#include <xtensor/xnpy.hpp>

#include <sstream>

using apg::Mat;
using apg::Vec;
using namespace apg::trace;

namespace {
StepRecord decoder_step(int index, std::size_t n) {
    StepRecord r;
    r.index = index;
    Vec weights(n);
    for (std::size_t j = 0; j < n; ++j) weights[j] = static_cast<float>(index * 10 + j);
    r.set("weights", to_tensor(weights));
    Mat hidden(n, 2);
    hidden << Mat::Constant(n, 2, static_cast<float>(index));
    r.set("hidden", to_tensor(hidden));
    r.fields["token"] = "汤姆";
    r.fields["choice"] = "greedy";
    return r;
}
} // namespace

TEST_CASE("an Eigen matrix becomes a row-major tensor with the same numbers") {
    Mat m(2, 3);
    m << 1, 2, 3, 4, 5, 6;
    Tensor t = to_tensor(m);
    REQUIRE(t.shape() == std::vector<std::size_t>{2, 3});
    CHECK(t(0, 2) == 3.0f);
    CHECK(t(1, 0) == 4.0f);
}

TEST_CASE("asking a step for a buffer it lacks names the buffers it has") {
    StepRecord r = decoder_step(0, 3);
    CHECK(r.has("weights"));
    CHECK_FALSE(r.has("scores"));
    CHECK_THROWS_WITH_AS(r.get("scores"), "trace: step 0 has no buffer \"scores\" (it has: hidden, weights)",
                         std::out_of_range);
}

TEST_CASE("a trace exports to JSON by buffer name, with shapes, fields and UTF-8 tokens") {
    Trace trace;
    trace.meta["source"] = {"tom", "chase", "jerry"};
    trace.steps.push_back(decoder_step(0, 3));
    trace.steps.push_back(decoder_step(1, 3));
    auto j = trace.to_json();
    REQUIRE(j["steps"].size() == 2);
    CHECK(j["steps"][1]["tensors"]["weights"]["shape"] == nlohmann::json::array({3}));
    CHECK(j["steps"][1]["tensors"]["weights"]["data"][2].get<float>() == 12.0f);
    CHECK(j["steps"][0]["fields"]["token"] == "汤姆");
    CHECK(j["meta"]["source"][1] == "chase");
}

TEST_CASE("non-finite numbers become null in JSON instead of invalid output") {
    Trace trace;
    StepRecord r;
    Vec v(2);
    v << 1.0f, std::numeric_limits<float>::quiet_NaN();
    r.set("scores", to_tensor(v));
    trace.steps.push_back(r);
    auto text = trace.to_json().dump();
    CHECK(text.find("null") != std::string::npos);
    CHECK(nlohmann::json::parse(text)["steps"][0]["tensors"]["scores"]["data"][0] == 1.0f);
}

TEST_CASE("npy export stacks equal-shaped buffers over steps and splits ragged ones") {
    Trace trace;
    trace.steps.push_back(decoder_step(0, 3));
    trace.steps.push_back(decoder_step(1, 3));
    StepRecord ragged;
    ragged.index = 2;
    Vec scores2(2);
    scores2 << 7, 8;
    ragged.set("scores", to_tensor(scores2));
    trace.steps.push_back(ragged);
    StepRecord ragged3;
    ragged3.index = 3;
    Vec scores3(4);
    scores3 << 1, 2, 3, 4;
    ragged3.set("scores", to_tensor(scores3));
    trace.steps.push_back(ragged3);

    auto files = trace.to_npy();
    REQUIRE(files.count("weights.npy") == 1);
    REQUIRE(files.count("hidden.npy") == 1);
    REQUIRE(files.count("scores.step2.npy") == 1);
    REQUIRE(files.count("scores.step3.npy") == 1);

    std::istringstream in(files["weights.npy"]);
    auto weights = xt::load_npy<float>(in);
    REQUIRE(weights.shape() == std::vector<std::size_t>{2, 3});
    CHECK(weights(1, 2) == 12.0f);
    CHECK(weights(0, 1) == 1.0f);

    std::istringstream in3(files["scores.step3.npy"]);
    auto s3 = xt::load_npy<float>(in3);
    CHECK(s3.shape() == std::vector<std::size_t>{4});
    CHECK(s3(3) == 4.0f);
    // the .npy magic string
    CHECK(files["hidden.npy"].substr(1, 5) == "NUMPY");
}
