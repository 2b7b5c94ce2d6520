// Hostile checkpoints: every JSON text the loader parses is held to one size and depth limit and
// may not repeat a key, config fields are integers within their bounds, and a config is held
// against the file's tensors before anything of its size is allocated. Each rejection is a
// FileError(bad_checkpoint) naming the field (and the limit), and the engine keeps working.
#include "core/error.hpp"
#include "core/limits.hpp"
#include "io/checkpoint.hpp"
#include "io/model.hpp"

#include "support/letters.hpp"
#include "support/tiny_config.hpp"

#include <doctest/doctest.h>

#include <climits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

using namespace apg;
using namespace apg::models;
using namespace apg::io;

namespace {

struct Rejection {
    ErrorCode code;
    std::string message;
    Details details;

    std::optional<DetailValue> detail(const std::string &name) const {
        for (const auto &[key, value] : details)
            if (key == name) return value;
        return std::nullopt;
    }
    std::string text(const std::string &name) const {
        const auto value = detail(name);
        return value && std::holds_alternative<std::string>(*value) ? std::get<std::string>(*value) : "(none)";
    }
    std::int64_t number(const std::string &name) const {
        const auto value = detail(name);
        return value && std::holds_alternative<std::int64_t>(*value) ? std::get<std::int64_t>(*value) : -1;
    }
};

// The FileError a load gives; fails the test when it loads or throws anything else.
Rejection load_rejection(const std::vector<std::uint8_t> &bytes) {
    try {
        Model::load(bytes);
    } catch (const FileError &e) {
        return {e.code(), e.what(), e.details()};
    } catch (const std::exception &e) {
        FAIL("not a FileError: " << e.what());
    }
    FAIL("the file loaded");
    return {};
}

using test::letters;

Model tiny_model() {
    const ModelConfig c = testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau,
                                               {.source_vocab = 7, .target_vocab = 7, .max_target_len = 6});
    return Model(Seq2Seq(c, 3), letters(), letters(), {{"seed", 3}});
}

std::vector<std::uint8_t> with_metadata(const std::string &key, const std::string &value) {
    Checkpoint c = load_safetensors(tiny_model().save());
    c.metadata[key] = value;
    return save_safetensors(c);
}

std::vector<std::uint8_t> with_config_text(const std::string &key, const std::string &json_value) {
    nlohmann::json config = tiny_model().config().to_json();
    config.erase(key);
    std::string text = config.dump();
    text.insert(1, "\"" + key + "\":" + json_value + ",");
    return with_metadata("config", text);
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// The engine still loads and decodes after a rejection.
void still_works() {
    const Model model = Model::load(tiny_model().save());
    CHECK(model.translate("abc").source_tokens.size() == 3);
}

} // namespace

TEST_CASE("metadata JSON nesting past the depth limit is refused for every metadata string") {
    for (const char *field : {"training", "config", "source_vocab", "target_vocab"}) {
        CAPTURE(field);
        const Rejection r = load_rejection(with_metadata(field, nested(10000)));
        CHECK(r.code == ErrorCode::bad_checkpoint);
        CHECK(r.text("field") == field);
        CHECK(r.number("limit") == static_cast<std::int64_t>(limits::max_json_depth));
        CHECK(r.message == "checkpoint: metadata field \"" + std::string(field) + "\" nests deeper than " +
                               std::to_string(limits::max_json_depth) + " levels");
    }
    // At the limit a training record is fine (it is free-form JSON).
    const Model model = Model::load(with_metadata("training", "{\"runs\":" + nested(limits::max_json_depth - 1) + "}"));
    CHECK(model.training().contains("runs"));
    // The header's own nesting has the same limit.
    const std::string deep_header = "{\"x\":" + nested(limits::max_json_depth) + "}";
    std::vector<std::uint8_t> bytes(8, 0);
    bytes[0] = static_cast<std::uint8_t>(deep_header.size());
    bytes.insert(bytes.end(), deep_header.begin(), deep_header.end());
    const Rejection header = load_rejection(bytes);
    CHECK(header.text("field") == "header");
    CHECK(header.message.find("nests deeper than") != std::string::npos);
    still_works();
}

TEST_CASE("parse_json refuses text over the size limit and a key twice at any level") {
    const std::string big(limits::max_json_bytes + 1, ' ');
    try {
        parse_json(big, "training");
        FAIL("parsed");
    } catch (const FileError &e) {
        CHECK(std::string(e.what()).find("more than the limit of " + std::to_string(limits::max_json_bytes)) !=
              std::string::npos);
    }
    CHECK_THROWS_WITH_AS(parse_json(R"({"a":{"b":1,"b":2}})", "training"),
                         "checkpoint: metadata field \"training\" has the key \"b\" twice", FileError);
    CHECK(parse_json(R"({"a":{"b":1},"b":2})", "training")["b"] == 2); // one key per object, not per file
}

TEST_CASE("parse_json builds the document nlohmann's parser builds, and keeps its error messages") {
    // Every kind of value at the top level, in arrays (nested, empty) and under keys, in key order
    // that differs from the text's (the objects are sorted maps).
    const char *texts[] = {
        R"({"z":[1,-2,3.5e-3,18446744073709551615,[],[[true,false,null]],{}],"a":{"y":"\u00e9\n","b":[{"c":{}}]},"m":0})",
        R"([[],{"k":[null]},"s",-0.0,1e300])",
        "17",
        "\"text\"",
        "null",
        "[]",
        "{}"};
    for (const char *text : texts) {
        CAPTURE(text);
        const nlohmann::json built = parse_json(text, "training");
        CHECK(built == nlohmann::json::parse(text));
        CHECK(built.dump() == nlohmann::json::parse(text).dump());
    }
    for (const char *bad : {"{\"a\":", "[1,]", "1e999", "{\"a\" 1}", "[1] 2", ""}) {
        CAPTURE(bad);
        std::string expected;
        try {
            [[maybe_unused]] const nlohmann::json parsed = nlohmann::json::parse(bad);
        } catch (const nlohmann::json::exception &e) {
            expected = std::string("checkpoint: metadata field \"training\" is not valid JSON (") + e.what() + ")";
        }
        REQUIRE(!expected.empty());
        CHECK_THROWS_WITH_AS(parse_json(bad, "training"), expected.c_str(), FileError);
    }
}

TEST_CASE("a config key given twice in the metadata is refused, not last-one-wins") {
    const Rejection r = load_rejection(with_config_text("embedding", "3,\"embedding\":4"));
    CHECK(r.code == ErrorCode::bad_checkpoint);
    CHECK(r.text("field") == "config");
    CHECK(r.message == "checkpoint: metadata field \"config\" has the key \"embedding\" twice");
}

TEST_CASE("config sizes must be JSON integers: no rounding, no wrapping") {
    for (const char *value : {"3.5", "3.0", "1e10", "\"3\"", "true", "null"}) {
        CAPTURE(value);
        const Rejection r = load_rejection(with_config_text("embedding", value));
        CHECK(r.code == ErrorCode::bad_checkpoint);
        CHECK(r.text("field") == "embedding");
        CHECK(r.message == std::string("checkpoint: model config: field \"embedding\" must be an integer, got ") +
                               nlohmann::json::parse(value).dump());
    }
    // Integers past an int are named, not wrapped (10^10 wrapped to 1,410,065,408 before).
    const Rejection wide = load_rejection(with_config_text("embedding", "10000000000"));
    CHECK(wide.text("field") == "embedding");
    CHECK(wide.message.find("out of range") != std::string::npos);
    still_works();
}

TEST_CASE("config sizes outside their bounds are refused naming the field and its limit") {
    struct Case {
        const char *field;
        std::int64_t value, limit;
    };
    for (const Case &c :
         {Case{"embedding", 1 << 24, limits::max_model_dim}, Case{"decoder_hidden", 4097, limits::max_model_dim},
          Case{"source_vocab", 40000, limits::max_vocab_tokens}, Case{"max_source_len", 513, limits::max_input_tokens},
          Case{"max_target_len", INT_MAX, limits::max_decode_steps - 1},
          Case{"max_target_len", 1000000, limits::max_decode_steps - 1},
          Case{"attention_dim", 0, limits::max_model_dim}, Case{"embedding", -3, limits::max_model_dim}}) {
        CAPTURE(c.field);
        CAPTURE(c.value);
        const Rejection r = load_rejection(with_config_text(c.field, std::to_string(c.value)));
        CHECK(r.code == ErrorCode::bad_checkpoint);
        CHECK(r.text("field") == c.field);
        CHECK(r.number("limit") == c.limit);
        CHECK(r.message.find(c.field) != std::string::npos);
        CHECK(r.message.find(c.value <= 0 ? "must be positive" : "to " + std::to_string(c.limit)) != std::string::npos);
    }
    still_works();
}

TEST_CASE("a config at its bounds in a tiny file is refused by its tensors before the model is allocated") {
    // Every size at its limit: the parameters would take over 3 GB (the decoder's output layer
    // alone 32768 × 16384 floats). The file has none of them; the loader names the first missing
    // tensor without allocating the model (allocating first would exhaust a wasm heap).
    ModelConfig c = testing::tiny_config(attention::ScoreKind::additive, AttentionStyle::bahdanau);
    c.source_vocab = c.target_vocab = limits::max_vocab_tokens;
    c.embedding = c.encoder_hidden = c.decoder_hidden = c.attention_dim = limits::max_model_dim;
    c.max_source_len = limits::max_input_tokens;
    c.max_target_len = static_cast<int>(limits::max_decode_floats / limits::max_vocab_tokens) - 1;
    REQUIRE_NOTHROW(c.validate());
    std::int64_t floats = 0;
    for (const TensorShape &t : tensor_shapes(c)) {
        std::int64_t n = 1;
        for (auto d : t.shape) n *= d;
        CHECK(n < (std::int64_t{1} << 31));
        floats += n;
    }
    CHECK(floats * 4 > (std::int64_t{3} << 30));

    Checkpoint file;
    file.metadata = load_safetensors(tiny_model().save()).metadata;
    file.metadata["config"] = c.to_json().dump();
    std::vector<std::string> specials{"<pad>", "<s>", "</s>", "<unk>"}, tokens = specials;
    for (int i = 4; i < limits::max_vocab_tokens; ++i) tokens.push_back("t" + std::to_string(i));
    file.metadata["source_vocab"] = file.metadata["target_vocab"] =
        Vocabulary(tokens, Tokenizer::words).to_json().dump();
    const Rejection r = load_rejection(save_safetensors(file));
    CHECK(r.text("field") == "encoder.embedding");
    CHECK(r.message == "checkpoint: missing tensor \"encoder.embedding\" [32768, 4096]");
}

TEST_CASE("tensor_shapes gives the names and shapes of the model's tensors for every kind of config") {
    for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
        for (attention::ScoreKind score : attention::all_score_kinds) {
            for (int variant = 0; variant < 3; ++variant) {
                ModelConfig c = testing::tiny_config(score, style);
                if (variant == 1) { // one direction: dot-like scores need decoder_hidden = He
                    c.bidirectional = false;
                    c.decoder_hidden = c.encoder_hidden;
                }
                if (variant == 2) { // transformer: decoder_hidden = E for dot-like scores
                    c.encoder = EncoderKind::transformer;
                    c.embedding = c.decoder_hidden = 4;
                    c.heads = 2;
                    c.layers = 2;
                    c.ff_hidden = 5;
                }
                CAPTURE(attention::name(score));
                CAPTURE(variant);
                Parameters p = init_parameters(c, 1);
                std::vector<TensorShape> made;
                for (const TensorRef &t : tensors(p, c)) made.push_back({t.name, t.shape});
                CHECK(tensor_shapes(c) == made);
            }
        }
    }
}

TEST_CASE("a file over the size limit is refused before it is read") {
    const std::vector<std::uint8_t> bytes(limits::max_file_bytes + 1, 0);
    const Rejection r = load_rejection(bytes);
    CHECK(r.text("field") == "file");
    CHECK(r.number("limit") == static_cast<std::int64_t>(limits::max_file_bytes));
}

TEST_CASE("a NUL byte in a name reaches the message escaped, and the message reaches its end") {
    const Rejection r = load_rejection(with_metadata("format", std::string("apg\0x", 5)));
    CHECK(r.message == "checkpoint: format \"apg\\u0000x\" is not apg-seq2seq-1");
    CHECK(std::string(r.message.c_str()) == r.message);
}

TEST_CASE("a config without a score or with a non-string name is a coded error naming the field") {
    // Found by fuzz_metadata: a missing "score" escaped as nlohmann's out_of_range.
    for (const char *field : {"score", "style"}) {
        CAPTURE(field);
        nlohmann::json config = tiny_model().config().to_json();
        config.erase(field);
        CHECK_THROWS_WITH_AS(ModelConfig::from_json(config), doctest::Contains(field), InputError);
        config[field] = 7;
        CHECK_THROWS_WITH_AS(ModelConfig::from_json(config), doctest::Contains("must be a string"), InputError);
    }
    nlohmann::json config = tiny_model().config().to_json();
    config["encoder"] = std::string("rnn\0x", 5);
    CHECK_THROWS_WITH_AS(ModelConfig::from_json(config),
                         "model config: unknown encoder \"rnn\\u0000x\" (valid: gru, transformer, conv, audio)",
                         InputError);
}
