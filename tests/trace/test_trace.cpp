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

TEST_CASE("the hand-written npy bytes are exactly what xtensor's npy writer gives") {
    const std::vector<float> data{1.5f, -2.0f, 3.25f, 0.0f, 5.0f, -6.5f, 7.0f, 8.0f};
    const std::vector<std::vector<std::size_t>> shapes{{}, {0}, {3}, {2, 3}, {2, 1, 4}, {1, 2, 2, 2}};
    for (const auto &shape : shapes) {
        CAPTURE(shape.size());
        xt::xarray<float> expected = xt::xarray<float>::from_shape(shape);
        std::copy(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(expected.size()), expected.data());
        const std::string bytes = npy_bytes(shape, data.data());
        CHECK(bytes == xt::dump_npy(expected));
        CHECK((bytes.size() - expected.size() * sizeof(float)) % 64 == 0); // the data starts 64-aligned
    }
}

TEST_CASE("an npy header reads as NumPy's dict: descr, C order, shape with a trailing comma for one axis") {
    const float x[6] = {};
    const std::string two = npy_bytes({2, 3}, x);
    CHECK(two.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
    const std::size_t header_len = static_cast<unsigned char>(two[8]) + 256 * static_cast<unsigned char>(two[9]);
    // a 60-character dict + '\n' after the 10 bytes of prefix: 57 spaces pad it to 128
    CHECK(header_len == 118);
    const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    CHECK(two.compare(10, dict.size(), dict) == 0);
    CHECK(two.compare(10 + dict.size(), 57, std::string(57, ' ')) == 0);
    CHECK(two.size() == 128 + 6 * sizeof(float));
    CHECK(two[10 + header_len - 1] == '\n');
    const std::string one = npy_bytes({6}, x);
    CHECK(one.find("'shape': (6,), }") != std::string::npos);
    CHECK(npy_bytes({}, x).find("'shape': (), }") != std::string::npos);
}
