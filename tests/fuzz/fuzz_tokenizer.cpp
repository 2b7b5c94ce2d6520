// libFuzzer target: text → tokenizer → encode → translate, on the vocabularies of two shipped
// models (words: zh, characters: dates; the first byte picks one). Checks that every rejection is
// a coded InputError whose message has no NUL (it must reach JS whole), that accepted text gives
// ids inside the vocabulary, and that the helpers behind the messages agree with each other.
#include "core/error.hpp"
#include "io/model.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::unique_ptr<apg::io::Model>> models;

[[noreturn]] void finding(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_tokenizer: %s: %s\n", what, detail.c_str());
    std::abort();
}

void load(const char *name) {
    const std::string path = std::string(APG_SOURCE_DIR) + "/web/models/" + name + ".safetensors";
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    models.push_back(std::make_unique<apg::io::Model>(apg::io::Model::load(bytes)));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    load("zh-additive-bahdanau");
    load("dates-additive-bahdanau");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) return 0;
    const apg::io::Model &model = *models[data[0] % models.size()];
    const std::string_view text(reinterpret_cast<const char *>(data + 1), size - 1);
    try {
        const std::vector<int> ids = model.encode_source(text);
        for (int id : ids)
            if (id <= apg::io::Vocabulary::unk || id >= model.source_vocab().size())
                finding("bad id", std::to_string(id));
        const apg::io::Translation t = model.translate(text);
        if (t.source_tokens.size() != ids.size()) finding("translate", "source tokens differ from encode");
    } catch (const apg::InputError &e) {
        const std::string message = e.what();
        if (message.empty() || message.find('\0') != std::string::npos) finding("message with a NUL", message);
    } catch (const std::exception &e) {
        finding("not an InputError", e.what());
    }
    // Splitting into code points and counting them agree on valid text.
    try {
        const auto points = apg::io::utf8_code_points(text);
        if (points.size() != apg::io::count_code_points(text)) finding("count_code_points", std::string(text));
        const std::size_t half = points.size() / 2;
        std::string a, b;
        for (std::size_t i = 0; i < points.size(); ++i) (i < half ? a : b) += points[i];
        if (a.size() + b.size() < 200) {
            const int d = apg::io::edit_distance(a, b);
            const int bound = static_cast<int>(std::max(half, points.size() - half));
            if (d < 0 || d > bound || d != apg::io::edit_distance(b, a)) finding("edit_distance", a + " | " + b);
        }
    } catch (const apg::InputError &) {
    }
    return 0;
}
