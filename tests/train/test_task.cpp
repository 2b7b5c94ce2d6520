// The task descriptors (train/task.hpp) Run, apg and the trainer module reach every task through:
// each is found by its name and builds its recipe for every encoder it names, a model finds the
// task it was trained on, the text tasks encode their examples, and apg's reports of a shipped
// model of each input kind hold its real output.
#include "core/error.hpp"
#include "io/model.hpp"
#include "io/ppm.hpp"
#include "tasks/scenes.hpp"
#include "train/scenes_task.hpp"
#include "train/task.hpp"
#include "train/text_task.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

using namespace apg;
using namespace apg::train;

namespace {

io::Model shipped(const std::string &file) {
    std::ifstream in(std::filesystem::path(APG_SOURCE_DIR) / "web" / "models" / file, std::ios::binary);
    return io::Model::load(std::vector<std::uint8_t>{std::istreambuf_iterator<char>(in), {}});
}

} // namespace

TEST_CASE("every task is found by its name and builds its recipe model for each encoder it names") {
    std::set<std::string> names;
    for (const Task *task : all_tasks()) {
        const std::string name(task->name());
        CAPTURE(name);
        CHECK(names.insert(name).second);
        CHECK(find_task(name) == task);
        CHECK_FALSE(task->encoders().empty());
        CHECK_FALSE(task->command_line().train_usage.empty());
        CHECK_FALSE(task->command_line().decode_usage.empty());
        for (const models::EncoderKind encoder : task->encoders()) {
            const models::ModelConfig c =
                task->config(attention::ScoreKind::additive, models::AttentionStyle::bahdanau, encoder, {4, 4, 1, 1});
            CHECK(c.task == name);
            CHECK(c.encoder == encoder);
            CHECK(task->options(encoder).steps > 0);
        }
        // A recipe that fixes the model says what it reads and its sizes.
        if (const FixedRecipe *fixed = task->fixed()) {
            CHECK(task->encoders().size() == 1);
            CHECK_FALSE(fixed->reads.empty());
        }
    }
    CHECK(names == std::set<std::string>{"dates", "zh", "reverse", "scenes", "speech"});
    CHECK(find_task("pairs") == nullptr); // own pairs come with their text, never by name
    CHECK(find_task("nope") == nullptr);
}

TEST_CASE("a model's task: by its config's name, own pairs by theirs, a hand-made model by its encoder") {
    models::ModelConfig c;
    c.task = "zh";
    CHECK(task_of(c).name() == "zh");
    c.task = "pairs";
    CHECK(&task_of(c) == &pairs_task());
    c.task = "my own";
    c.encoder = models::EncoderKind::transformer;
    CHECK(task_of(c).name() == "dates"); // the first text task: it decodes text like any
    c.encoder = models::EncoderKind::conv;
    CHECK(task_of(c).name() == "scenes");
    c.encoder = models::EncoderKind::audio;
    CHECK(task_of(c).name() == "speech");
}

TEST_CASE("apg's decode report of a shipped text model: its translation and alignment") {
    const io::Model model = shipped("zh-additive-bahdanau.safetensors");
    const DecodeReport r = task_of(model.config()).decode(model, {"tom chase jerry", std::nullopt, {}});
    CHECK(r.text.rfind("汤姆 追逐 杰瑞\n", 0) == 0);
    CHECK(r.text.find("attention weights (%), rows = output, columns = source") != std::string::npos);
    // a header row and one row per output token and the end token
    const auto rows = std::count(r.text.begin(), r.text.end(), '\n');
    CHECK(rows == 1 + 2 + 1 + 4);
    CHECK(r.files.empty());
}

TEST_CASE("apg's decode report of a shipped scenes model: a description or a picture, and the image it read") {
    const io::Model model = shipped("scenes-additive-bahdanau.safetensors");
    const Task &task = task_of(model.config());
    const std::string scene = "small red circle at 10,12; large blue square at 24,20";
    const DecodeReport described = task.decode(model, {scene, std::nullopt, {{"ppm", "out.ppm"}}});
    CHECK(described.text.find("its caption by the grammar: a small red circle to the left of a large blue square\n") !=
          std::string::npos);
    CHECK(described.text.find("caption: a small red circle to the left of a large blue square\n") != std::string::npos);
    REQUIRE(described.files.count("ppm") == 1);
    // The picture it wrote, read back, is captioned the same.
    const DecodeReport read = task.decode(model, {"out.ppm", described.files.at("ppm"), {}});
    CHECK(read.text.find("caption: a small red circle to the left of a large blue square\n") == 0);
    const io::RgbImage image = io::read_ppm(described.files.at("ppm"), 64);
    CHECK(image.pixels == tasks::scenes::render(tasks::scenes::parse_description(scene)));
    // A file that is not a picture is named in the error.
    try {
        task.decode(model, {"bad.ppm", std::vector<std::uint8_t>{'P', '3'}, {}});
        FAIL("no error");
    } catch (const InputError &e) {
        CHECK(e.code() == ErrorCode::bad_argument);
        CHECK(std::string(e.text()) == "\"bad.ppm\": ppm: not a binary PPM (P6) image: it does not start with P6");
    }
}

TEST_CASE("apg's options: whole numbers and numbers, or an error naming the option") {
    CHECK(whole_option("seed", "42") == 42);
    CHECK(number_option("rate", "1.25") == 1.25f);
    CHECK_THROWS_WITH_AS(whole_option("seed", "4x"), "--seed needs an integer, got \"4x\"", std::invalid_argument);
    CHECK_THROWS_WITH_AS(number_option("lr", "fast"), "--lr needs a number, got \"fast\"", std::invalid_argument);
    CHECK(printed("%s: %.2f%%", "a", 12.345) == "a: 12.35%");
}

TEST_CASE("examples encode to ids through the task's vocabularies and join back to their texts") {
    const tasks::TaskData data = tasks::make_task("zh", 1, 50, 5);
    const auto source_vocab = tasks::source_vocabulary(data);
    const auto target_vocab = tasks::target_vocabulary(data);
    const EncodedPairs pairs = encode_examples(data.train, source_vocab, target_vocab);
    REQUIRE(pairs.size() == 50);
    CHECK(pairs.sources[0].size() == 3); // tom chase jerry
    CHECK(source_vocab.join(pairs.sources[0]) == "tom chase jerry");
    CHECK(target_vocab.join(pairs.targets[0]) == "汤姆 追逐 杰瑞");
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        wrong += source_vocab.join(pairs.sources[i]) != data.train[i].source_text ||
                 target_vocab.join(pairs.targets[i]) != data.train[i].target_text;
    CHECK(wrong == 0);
    const auto tiny = io::Vocabulary::build({{"tom"}}, io::Tokenizer::words);
    CHECK_THROWS_AS(encode_examples(data.train, tiny, target_vocab), std::invalid_argument);
}
