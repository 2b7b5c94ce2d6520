#include "io/checkpoint.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using apg::io::Checkpoint;
using apg::io::load_safetensors;
using apg::io::save_safetensors;

namespace {

using Bytes = std::vector<std::uint8_t>;

// A file with the given header text and data bytes, the header length written as told.
Bytes file_with(const std::string &header, const Bytes &data, std::uint64_t header_length) {
    Bytes bytes;
    for (int byte = 0; byte < 8; ++byte) bytes.push_back(static_cast<std::uint8_t>(header_length >> (8 * byte)));
    bytes.insert(bytes.end(), header.begin(), header.end());
    bytes.insert(bytes.end(), data.begin(), data.end());
    return bytes;
}

Bytes file_with(const std::string &header, const Bytes &data) { return file_with(header, data, header.size()); }

Bytes floats(const std::vector<float> &values) {
    Bytes bytes(values.size() * 4);
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, &values[i], 4);
        for (int byte = 0; byte < 4; ++byte) bytes[4 * i + byte] = static_cast<std::uint8_t>(bits >> (8 * byte));
    }
    return bytes;
}

std::string rejection(const Bytes &bytes) {
    try {
        load_safetensors(bytes);
    } catch (const std::runtime_error &error) {
        return error.what();
    }
    return "(loaded)";
}

// Two tensors a (2 floats at [0, 8)) and b (1 float at [8, 12)) with the given overrides.
const std::string a_ok = R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})";
const std::string b_ok = R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]})";
const Bytes three_floats = floats({1.0f, 2.0f, 3.0f});

Checkpoint sample() {
    Checkpoint checkpoint;
    checkpoint.tensors["encoder.fwd.w_ih"] = {{2, 3}, {1.0f, -2.5f, 3.25f, 0.0f, -0.0f, 1e-30f}};
    checkpoint.tensors["decoder.attn.v"] = {
        {4}, {std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(), -1.0f / 3.0f, 7.0f}};
    checkpoint.tensors["empty"] = {{0, 5}, {}};
    checkpoint.tensors["scalar"] = {{}, {42.0f}};
    checkpoint.metadata["task"] = "zh";
    checkpoint.metadata["source_vocab"] = R"({"tokenizer":"words","tokens":["<pad>","<s>","</s>","<unk>","汤姆"]})";
    return checkpoint;
}

} // namespace

TEST_CASE("a checkpoint survives a save and load bit for bit") {
    const Checkpoint original = sample();
    const Bytes bytes = save_safetensors(original);
    const Checkpoint loaded = load_safetensors(bytes);
    CHECK(loaded.metadata == original.metadata);
    REQUIRE(loaded.tensors.size() == original.tensors.size());
    for (const auto &entry : original.tensors) {
        const std::string &name = entry.first;
        const auto &tensor = entry.second;
        CAPTURE(name);
        REQUIRE(loaded.tensors.count(name) == 1);
        const auto &other = loaded.tensors.at(name);
        CHECK(other.shape == tensor.shape);
        REQUIRE(other.data.size() == tensor.data.size());
        // Bit-exact, so -0.0 stays -0.0 and the denormal survives.
        std::size_t different_bits = 0;
        for (std::size_t i = 0; i < tensor.data.size(); ++i)
            different_bits += std::memcmp(&other.data[i], &tensor.data[i], 4) != 0;
        CHECK(different_bits == 0);
    }
    CHECK(save_safetensors(loaded) == bytes);
}

TEST_CASE("saved bytes are little-endian float32 after an 8-aligned header, in sorted name order") {
    Checkpoint checkpoint;
    checkpoint.tensors["b"] = {{1}, {1.0f}};
    checkpoint.tensors["a"] = {{1}, {-2.0f}};
    const Bytes bytes = save_safetensors(checkpoint);
    std::uint64_t header_length = 0;
    for (int byte = 0; byte < 8; ++byte) header_length |= std::uint64_t{bytes[byte]} << (8 * byte);
    CHECK(header_length % 8 == 0);
    REQUIRE(bytes.size() == 8 + header_length + 8);
    const std::string header(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(header_length));
    CHECK(header.rfind(R"({"a":{"data_offsets":[0,4],"dtype":"F32","shape":[1]},"b":{"data_offsets":[4,8])", 0) == 0);
    // -2.0f = 0xC0000000, 1.0f = 0x3F800000, least significant byte first.
    const Bytes data(bytes.end() - 8, bytes.end());
    CHECK(data == Bytes{0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x80, 0x3F});
}

TEST_CASE("the same checkpoint always saves to the same bytes") {
    CHECK(save_safetensors(sample()) == save_safetensors(sample()));
}

TEST_CASE("saving refuses tensors whose data does not match their shape") {
    Checkpoint checkpoint;
    checkpoint.tensors["w"] = {{2, 2}, {1.0f, 2.0f, 3.0f}};
    CHECK_THROWS_WITH_AS(save_safetensors(checkpoint),
                         "save_safetensors: tensor \"w\" shape [2, 2] needs 4 values, has 3", std::invalid_argument);
    checkpoint.tensors["w"] = {{1}, {std::nanf("")}};
    CHECK_THROWS_AS(save_safetensors(checkpoint), std::invalid_argument);
    checkpoint.tensors.clear();
    checkpoint.tensors["__metadata__"] = {{1}, {1.0f}};
    CHECK_THROWS_AS(save_safetensors(checkpoint), std::invalid_argument);
}

TEST_CASE("a well-formed hand-written file loads") {
    const Checkpoint loaded = load_safetensors(file_with("{" + a_ok + "," + b_ok + "}  ", three_floats));
    CHECK(loaded.tensors.at("a").data == std::vector<float>{1.0f, 2.0f});
    CHECK(loaded.tensors.at("b").data == std::vector<float>{3.0f});
    CHECK(loaded.metadata.empty());
    CHECK(load_safetensors(file_with("{}", {})).tensors.empty());
}

TEST_CASE("hostile files are rejected with a message naming the problem") {
    const std::string both = a_ok + "," + b_ok;
    SUBCASE("shorter than the header length") {
        CHECK(rejection({1, 0, 0}) == "checkpoint: file is 3 bytes, too short for the 8-byte header length");
        CHECK(rejection({}) == "checkpoint: file is 0 bytes, too short for the 8-byte header length");
    }
    SUBCASE("header length beyond the limit") {
        CHECK(rejection(file_with("{}", {}, std::uint64_t{1} << 62)) ==
              "checkpoint: header length 4611686018427387904 is larger than the limit of " +
                  std::to_string(apg::limits::max_json_bytes) + " bytes");
        CHECK(rejection(file_with("{}", {}, ~std::uint64_t{0})).find("is larger than the limit") != std::string::npos);
    }
    SUBCASE("header length past the end of the file") {
        CHECK(rejection(file_with("{}", {}, 3)) ==
              "checkpoint: header length 3 runs past the end of the file (10 bytes)");
    }
    SUBCASE("truncated data") {
        const Bytes full = file_with("{" + both + "}", three_floats);
        const Bytes cut(full.begin(), full.end() - 1);
        CHECK(rejection(cut) == "checkpoint: tensor \"b\" data_offsets [8, 12] run past the data section (11 bytes)");
    }
    SUBCASE("header that is not JSON") {
        CHECK(rejection(file_with("{\"a\":", {})).rfind("checkpoint: header is not valid JSON (", 0) == 0);
        CHECK(rejection(file_with("\xff\xfe", {})).rfind("checkpoint: header is not valid JSON (", 0) == 0);
        CHECK(rejection(file_with(std::string(1000, '['), {})) ==
              "checkpoint: header nests deeper than " + std::to_string(apg::limits::max_json_depth) + " levels");
    }
    SUBCASE("header that is not an object") {
        CHECK(rejection(file_with("[1,2]", {})) == "checkpoint: header is not a JSON object");
        CHECK(rejection(file_with("\"F32\"", {})) == "checkpoint: header is not a JSON object");
    }
    SUBCASE("entry that is not an object or misses or adds fields") {
        CHECK(rejection(file_with(R"({"a":[1]})", {})) ==
              "checkpoint: tensor \"a\" must be an object with dtype, shape and data_offsets");
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[0]}})", {})) ==
              "checkpoint: tensor \"a\" has no field \"data_offsets\"");
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[0,0],"x":1}})", {})) ==
              "checkpoint: tensor \"a\" has an unexpected field \"x\"");
        CHECK(rejection(file_with(R"({"":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}})", {})) ==
              "checkpoint: a tensor has an empty name");
    }
    SUBCASE("wrong dtype") {
        CHECK(rejection(file_with(R"({"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}})", floats({1.0f}))) ==
              "checkpoint: tensor \"a\" has dtype \"F16\"; only \"F32\" (float32) is supported");
        CHECK(rejection(file_with(R"({"a":{"dtype":32,"shape":[1],"data_offsets":[0,4]}})", floats({1.0f}))) ==
              "checkpoint: tensor \"a\" dtype must be a string, got 32");
    }
    SUBCASE("negative, fractional or overflowing shapes") {
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[2,-1],"data_offsets":[0,8]}})", floats({1, 2}))) ==
              "checkpoint: tensor \"a\" shape[1] is negative (-1)");
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})", floats({1}))) ==
              "checkpoint: tensor \"a\" shape[0] must be a non-negative integer, got 1.5");
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":"2","data_offsets":[0,8]}})", floats({1, 2}))) ==
              "checkpoint: tensor \"a\" shape must be an array of integers, got \"2\"");
        // 2^32 · 2^32 wraps to 0 in 64 bits: a loader multiplying blindly would accept an empty tensor.
        CHECK(
            rejection(file_with(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]}})", {})) ==
            "checkpoint: tensor \"a\" shape [4294967296,4294967296] has too many elements");
        CHECK(
            rejection(file_with(R"({"a":{"dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,0]}})", {})) ==
            "checkpoint: tensor \"a\" shape [18446744073709551615] has too many elements");
    }
    SUBCASE("bad data_offsets") {
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0]}})", floats({1}))) ==
              "checkpoint: tensor \"a\" data_offsets must be [begin, end], got [0]");
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}})", floats({1}))) ==
              "checkpoint: tensor \"a\" data_offsets[0] is negative (-4)");
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", floats({1}))) ==
              "checkpoint: tensor \"a\" data_offsets [4,0] end before they begin");
    }
    SUBCASE("offsets out of range") {
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})", floats({1}))) ==
              "checkpoint: tensor \"a\" data_offsets [8, 12] run past the data section (4 bytes)");
        CHECK(rejection(file_with(
                  R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[18446744073709551612,18446744073709551616]}})",
                  floats({1}))) == "checkpoint: tensor \"a\" data_offsets[1] must be a non-negative integer, got "
                                   "1.8446744073709552e+19");
    }
    SUBCASE("overlapping offsets") {
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                                  R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                  floats({1, 2}))) == "checkpoint: tensor \"b\" data_offsets overlap tensor \"a\"");
    }
    SUBCASE("a gap or trailing bytes in the data section") {
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", floats({1, 2}))) ==
              "checkpoint: gap of 4 bytes in the data section before tensor \"a\"");
        CHECK(
            rejection(file_with("{" + both + "}", floats({1, 2, 3, 4}))) ==
            "checkpoint: data section has 4 bytes that belong to no tensor (the file is longer than its header says)");
    }
    SUBCASE("size that does not match the shape") {
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", floats({1, 2}))) ==
              "checkpoint: tensor \"a\" data_offsets [0,8] span 8 bytes but shape [3] of float32 needs 12");
    }
    SUBCASE("duplicate keys") {
        CHECK(rejection(file_with("{" + a_ok + "," + a_ok + "}", floats({1, 2}))) ==
              "checkpoint: header has the key \"a\" twice");
        CHECK(rejection(file_with(R"({"a":{"dtype":"F32","dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                                  floats({1, 2}))) == "checkpoint: header has the key \"dtype\" twice");
    }
    SUBCASE("NaN and infinite values") {
        CHECK(rejection(file_with("{" + both + "}", floats({1.0f, std::nanf(""), 3.0f}))) ==
              "checkpoint: tensor \"a\" value 1 is NaN");
        CHECK(rejection(file_with("{" + both + "}", floats({1.0f, 2.0f, -std::numeric_limits<float>::infinity()}))) ==
              "checkpoint: tensor \"b\" value 0 is infinite");
    }
    SUBCASE("metadata that is not strings") {
        CHECK(rejection(file_with(R"({"__metadata__":{"task":"zh","hidden":64}})", {})) ==
              "checkpoint: __metadata__ value \"hidden\" is not a string");
        CHECK(rejection(file_with(R"({"__metadata__":["zh"]})", {})) ==
              "checkpoint: __metadata__ must be an object of strings");
    }
}

TEST_CASE("every truncation of a valid file is rejected, never crashes") {
    const Bytes bytes = save_safetensors(sample());
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        CAPTURE(size);
        const Bytes cut(bytes.begin(), bytes.begin() + static_cast<long>(size));
        CHECK(rejection(cut).rfind("checkpoint: ", 0) == 0);
    }
}

TEST_CASE("every single-byte corruption of the header is either loaded or rejected with a message") {
    const Bytes bytes = save_safetensors(sample());
    std::uint64_t header_length = 0;
    for (int byte = 0; byte < 8; ++byte) header_length |= std::uint64_t{bytes[byte]} << (8 * byte);
    for (std::size_t at = 0; at < 8 + header_length; ++at) {
        CAPTURE(at);
        Bytes corrupt = bytes;
        corrupt[at] ^= 0x5A;
        const std::string outcome = rejection(corrupt);
        CHECK((outcome == "(loaded)" || outcome.rfind("checkpoint: ", 0) == 0));
    }
}
