#include "cli/scenes.hpp"
#include "cli/output.hpp"

#include "core/error.hpp"
#include "io/ppm.hpp"
#include "train/tasks/scenes_prepare.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace apg::cli {

namespace {

namespace sc = train::scenes;

const train::SpecialTokens specials{io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos};

// Binary PPM (P6, maxval 255): width, height and the RGB bytes (io/ppm.hpp reads them).
std::vector<std::uint8_t> read_ppm(const std::string &path, int &width, int &height) {
    try {
        io::Picture picture = io::read_ppm(read_file(path), sc::max_upload_side);
        width = picture.width, height = picture.height;
        return std::move(picture.rgb);
    } catch (const Error &e) {
        throw std::runtime_error("\"" + path + "\": " + std::string(e.text()));
    }
}

void write_ppm(const std::string &path, const std::vector<std::uint8_t> &rgb) {
    std::ofstream out(path, std::ios::binary);
    out << "P6\n" << sc::image_size << " " << sc::image_size << "\n255\n";
    out.write(reinterpret_cast<const char *>(rgb.data()), static_cast<std::streamsize>(rgb.size()));
}

} // namespace

int train_scenes(const SceneTraining &r) {
    const std::size_t train_count = r.train_scenes ? r.train_scenes : sc::default_train_scenes;
    train::PreparedScenes task = train::prepare_scenes(r.seed, train_count);
    const models::ModelConfig config = train::scenes_config(r.score, r.style);
    train::TrainOptions options = train::scenes_options();
    options.seed = r.seed;
    if (r.steps) options.steps = r.steps;
    if (r.batch) options.batch_size = r.batch;
    if (r.learning_rate > 0) options.learning_rate = r.learning_rate;
    options.eval_every = r.eval_every;
    options.eval_examples = 200;
    std::fprintf(stderr, "task scenes: %zu train / %zu held-out scenes, %dx%d pixels, %d cells, %d caption words\n",
                 task.train.size(), task.heldout.size(), config.image_size, config.image_size, config.max_source_len,
                 config.target_vocab);
    models::Seq2Seq network(config, r.seed);
    train::Trainer trainer(network, task.train, task.heldout, specials, options);
    const train::Progress last = trainer.run(
        [&](const train::Progress &p) {
            if (!r.quiet) print_progress(p, "held-out");
            return true;
        },
        100);
    const train::ScenesScore score = train::evaluate_scenes(network, task.data.heldout, task.target_vocab);
    const nlohmann::json training =
        train::scenes_record(r.command_line, r.seed, options, task.train.size(), task.heldout.size(), score);
    io::Model model(std::move(network), task.source_vocab, task.target_vocab, training);
    const auto bytes = model.save();
    write_file(r.out, bytes);
    std::printf("%s: held-out exact match %.2f%%, attention hits the object %.2f%% (%d scenes, %d words), %.0f "
                "seq/s, %.0f s, %zu bytes\n",
                r.out.c_str(), 100.0 * score.exact_match, 100.0 * score.attention_hits, score.scenes, score.words,
                last.sequences_per_second, last.elapsed_seconds, bytes.size());
    return 0;
}

int eval_scenes(const io::Model &model, const std::string &path, std::size_t limit) {
    const auto seed = model.training().value("data_seed", std::uint64_t{1});
    const std::size_t heldout = model.training().value("heldout_pairs", sc::default_heldout_scenes);
    // The held-out scenes are drawn beside the training ones; only their count matters here.
    const sc::ScenesData data =
        sc::make_scenes(seed, model.training().value("train_pairs", sc::default_train_scenes), heldout);
    const train::ScenesScore score = train::evaluate_scenes(model.network(), data.heldout, model.target_vocab(), limit);
    std::printf("%s: task scenes, encoder conv, score %s, style %s: held-out exact match %.2f%% (%d scenes), attention "
                "hits the object %.2f%% (%d words)\n",
                path.c_str(), std::string(attention::name(model.config().score)).c_str(),
                std::string(models::name(model.config().style)).c_str(), 100.0 * score.exact_match, score.scenes,
                100.0 * score.attention_hits, score.words);
    return 0;
}

int decode_scene(const io::Model &model, const std::string &input, const std::string &ppm_out) {
    std::vector<std::uint8_t> pixels;
    const bool file = input.size() > 4 && input.substr(input.size() - 4) == ".ppm";
    if (file) {
        int w = 0, h = 0;
        const std::vector<std::uint8_t> rgb = read_ppm(input, w, h);
        pixels = sc::to_model_image(rgb, w, h, 3);
    } else {
        const sc::Scene scene = sc::parse_description(input);
        pixels = sc::render(scene);
        std::printf("scene: %s\nits caption by the grammar: %s\n", sc::describe(scene).c_str(),
                    sc::caption(scene).text().c_str());
    }
    const models::Seq2Seq &net = model.network();
    const models::EncoderOutput encoded = net.encode_image(pixels);
    const auto steps = net.greedy(encoded, specials.start, specials.end);
    std::vector<int> ids;
    for (const auto &s : steps) ids.push_back(train::peak_cell(s.probs));
    std::printf("caption: %s\n", model.target_vocab().join(ids).c_str());
    const int grid = net.config().image_size / 4;
    std::printf("\nattention weights (%%) over the %dx%d grid, per word\n", grid, grid);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const int id = ids[i];
        std::printf("\n%s (peak at row %d, column %d)\n", model.target_vocab().token(id).c_str(),
                    train::peak_cell(steps[i].attention.weights) / grid,
                    train::peak_cell(steps[i].attention.weights) % grid);
        for (int r = 0; r < grid; ++r) {
            for (int c = 0; c < grid; ++c) {
                const int pct = static_cast<int>(100.0f * steps[i].attention.weights(r * grid + c) + 0.5f);
                std::printf("%4s", pct == 0 ? "." : std::to_string(pct).c_str());
            }
            std::printf("\n");
        }
    }
    if (!ppm_out.empty()) write_ppm(ppm_out, pixels);
    return 0;
}

} // namespace apg::cli
