// The "reproduce this step" scripts run with Debian's NumPy (/usr/bin/python3, python3-numpy from
// scripts/setup.sh) and agree with the engine within decode::reproduce_tolerance: every score
// function in Bahdanau style, Luong models, the what-ifs (τ, a mask, a pin), a Transformer
// encoder's self-attention head, a Caption (image) step and a Listen (speech) step, all from the
// shipped models. A page number changed by 1e-4 makes the script fail, so the check can fail.
#include "decode/reproduce.hpp"

#include "decode/transformer_trace.hpp"
#include "models/transformer_decoder.hpp"
#include "support/shipped_models.hpp"
#include "tasks/scenes.hpp"
#include "tasks/speech.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>

using namespace apg;

namespace {

struct Run {
    int status = -1;
    std::string output;
};

// The script as a learner runs it: a file of its own, Debian's python3. With APG_REPRODUCE_DIR set
// the files are kept there, to be read.
Run run_python(const std::string &script, const std::string &name) {
    const char *keep = std::getenv("APG_REPRODUCE_DIR");
    const auto path = (keep ? std::filesystem::path(keep) : std::filesystem::temp_directory_path()) /
                      ("apg-reproduce-" + name + ".py");
    {
        std::ofstream out(path);
        out << script;
    }
    Run run;
    const std::string command = "/usr/bin/python3 '" + path.string() + "' 2>&1";
    FILE *pipe = popen(command.c_str(), "r");
    REQUIRE(pipe);
    std::array<char, 4096> buffer{};
    while (const std::size_t got = std::fread(buffer.data(), 1, buffer.size(), pipe))
        run.output.append(buffer.data(), got);
    const int status = pclose(pipe);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (!keep) std::filesystem::remove(path);
    return run;
}

void require_agreement(const std::string &script, const std::string &name) {
    const Run run = run_python(script, name);
    INFO(name << ":\n" << run.output);
    CHECK(run.status == 0);
    CHECK(run.output.find("the page and NumPy agree within 1e-05") != std::string::npos);
}

decode::SessionOptions options() {
    decode::SessionOptions o;
    o.start_id = io::Vocabulary::bos;
    o.end_id = io::Vocabulary::eos;
    return o;
}

std::vector<std::string> tokens(const io::Model &model, const std::vector<int> &ids) {
    std::vector<std::string> out;
    for (int id : ids) out.push_back(model.source_vocab().token(id));
    return out;
}

decode::ReproduceAbout about(const char *file, const io::Model &model, const decode::DecodeSession &s,
                             const std::string &input, int step) {
    return {file, input, tokens(model, s.encoded().ids),
            model.target_vocab().token(s.steps().at(static_cast<std::size_t>(step)).token)};
}

} // namespace

TEST_CASE("a text step's script agrees with the engine for every score function and both styles") {
    const char *files[] = {
        "dates-dot-bahdanau.safetensors",      "dates-scaled_dot-bahdanau.safetensors",
        "dates-general-bahdanau.safetensors",  "dates-additive-bahdanau.safetensors",
        "dates-cosine-bahdanau.safetensors",   "dates-scaled_cosine-bahdanau.safetensors",
        "dates-location-bahdanau.safetensors", "dates-general-luong.safetensors",
        "dates-additive-luong.safetensors",    "zh-dot-luong.safetensors",
    };
    for (const char *file : files) {
        CAPTURE(file);
        const io::Model model = test::shipped(file);
        const std::string input = model.config().task == "zh" ? "tom chased jerry" : "29 november 2026";
        decode::DecodeSession s(model.network(), model.encode_source(input), options());
        for (int i = 0; i < 3; ++i) s.step();
        const std::string script = decode::reproduce_step(s, 2, about(file, model, s, input, 2));
        CHECK(script.find("Step i = 3 of the output") != std::string::npos);
        require_agreement(script, file);
    }
}

TEST_CASE("a step's script states and reproduces the what-ifs in force: τ, a mask, a pin") {
    const char *file = "dates-additive-bahdanau.safetensors";
    const io::Model model = test::shipped(file);
    const std::string input = "29 november 2026";
    decode::DecodeSession s(model.network(), model.encode_source(input), options());
    s.set_temperature(2.5f);
    s.mask(3);
    s.step();
    s.pin(5);
    s.step();
    const std::string tempered = decode::reproduce_step(s, 0, about(file, model, s, input, 0));
    CHECK(tempered.find("# tau = 2.5; masked on the page (they take no weight): j = 3.") != std::string::npos);
    require_agreement(tempered, "tempered");
    const std::string pinned = decode::reproduce_step(s, 1, about(file, model, s, input, 1));
    CHECK(pinned.find("pinned this step's weights") != std::string::npos);
    require_agreement(pinned, "pinned");
}

TEST_CASE("a page number changed by 1e-4 makes the script fail") {
    const char *file = "dates-general-bahdanau.safetensors";
    const io::Model model = test::shipped(file);
    decode::DecodeSession s(model.network(), model.encode_source("29 november 2026"), options());
    decode::SessionStep step = s.step();
    const decode::ReproduceAbout what = about(file, model, s, "29 november 2026", 0);
    // the control: the same step unchanged agrees
    require_agreement(decode::reproduce_step(model.network(), s.encoded().states, step, 0, what), "unchanged");
    step.step.attention.weights[4] += 1e-4f;
    const Run run = run_python(decode::reproduce_step(model.network(), s.encoded().states, step, 0, what), "perturbed");
    INFO(run.output);
    CHECK(run.status == 1);
    CHECK(run.output.find("DISAGREE") != std::string::npos);
    CHECK(run.output.find("max |alpha page - alpha numpy| = 1.00e-04") != std::string::npos);
}

TEST_CASE("a Transformer encoder head's script agrees with the engine's self-attention") {
    const char *file = "dates-additive-bahdanau-transformer.safetensors";
    const io::Model model = test::shipped(file);
    const std::string input = "29 november 2026";
    decode::DecodeSession s(model.network(), model.encode_source(input), options());
    REQUIRE(s.encoded().self_attention);
    const auto &cache = *s.encoded().self_attention;
    const auto &params = model.network().parameters().transformer;
    REQUIRE(cache.layers.size() >= 2);
    const decode::ReproduceAbout what{file, input, tokens(model, s.encoded().ids), ""};
    const std::string script = decode::reproduce_self_attention(params, cache, 1, 1, 3, what);
    CHECK(script.find("layer 2, head 2, the query at position i = 3 (\"n\")") != std::string::npos);
    require_agreement(script, "self-attention");
    // the numbers the page reads are the trace record's (decode::to_records), the ones written here
    const auto layer = decode::to_records(params, cache)[1];
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.9g", static_cast<double>(layer.get("weights")(1, 3, 5)));
    const auto page_alpha = script.find("page_alpha = np.array([");
    REQUIRE(page_alpha != std::string::npos);
    CHECK(script.find(weight, page_alpha) < script.find('\n', page_alpha));
    CHECK_THROWS_AS((void)decode::reproduce_self_attention(params, cache, 1, model.config().heads, 0, what),
                    InputError);
    CHECK_THROWS_AS((void)decode::reproduce_self_attention(params, cache, 1, 0, 99, what), InputError);
    CHECK_THROWS_AS((void)decode::reproduce_self_attention(params, cache, 5, 0, 0, what), InputError);
}

TEST_CASE("a Caption (image) step's and a Listen (speech) step's scripts agree with the engine") {
    SUBCASE("image") {
        const char *file = "scenes-additive-bahdanau.safetensors";
        const io::Model model = test::shipped(file);
        const std::string input = "small red circle at 10,12; large blue square at 24,20";
        const models::Seq2Seq &net = model.network();
        decode::DecodeSession s(net, net.encode_image(tasks::scenes::render(tasks::scenes::parse_description(input))),
                                options());
        s.step();
        s.step();
        require_agreement(decode::reproduce_step(s, 1, {file, input, {}, ""}), "image");
    }
    SUBCASE("speech") {
        const char *file = "speech-location-bahdanau.safetensors";
        const io::Model model = test::shipped(file);
        const std::string input = "how much wood would a woodchuck chuck";
        const models::Seq2Seq &net = model.network();
        decode::DecodeSession s(net, net.encode_audio(tasks::speech::synthesize(input, 7).features), options());
        for (int i = 0; i < 4; ++i) s.step();
        require_agreement(decode::reproduce_step(s, 3, {file, input, {}, ""}), "speech");
    }
}

TEST_CASE("a step without one alignment to reproduce is refused with a coded error") {
    const auto refused = [](const char *file, const char *name) {
        CAPTURE(file);
        const io::Model model = test::shipped(file);
        decode::DecodeSession s(model.network(), model.encode_source("29 november 2026"), options());
        s.step();
        try {
            (void)decode::reproduce_step(s, 0, {});
            FAIL("not refused");
        } catch (const InputError &e) {
            CHECK(e.code() == ErrorCode::bad_argument);
            CHECK(std::get<std::string>(e.details().at(0).second) == name);
        }
    };
    models::register_transformer_decoder();
    refused("dates-none-bahdanau.safetensors", "score");
    refused("dates-transformer.safetensors", "decoder");
    const io::Model model = test::shipped("dates-dot-bahdanau.safetensors");
    decode::DecodeSession s(model.network(), model.encode_source("29 november 2026"), options());
    s.step();
    CHECK_THROWS_AS((void)decode::reproduce_step(s, 1, {}), InputError);
    CHECK_THROWS_AS((void)decode::reproduce_step(s, -1, {}), InputError);
}
