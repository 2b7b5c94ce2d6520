#include "train/scenes_task.hpp"

#include "core/error.hpp"
#include "io/ppm.hpp"
#include "train/fixed_task.hpp"

#include <algorithm>

namespace apg::train {

namespace sc = tasks::scenes;

namespace {

io::Vocabulary caption_vocabulary() { return io::Vocabulary::build({sc::caption_words()}, io::Tokenizer::words); }

// The grid cells as the Caption view names them: column a–h, row 1–8.
std::vector<std::string> cell_names(const models::ModelConfig &config) {
    const int grid = config.image_size / 4;
    std::vector<std::string> out;
    for (int cell = 0; cell < grid * grid; ++cell)
        out.push_back(std::string(1, static_cast<char>('a' + cell % grid)) + std::to_string(cell / grid + 1));
    return out;
}

// The held-out scenes, their pixels in heldout.images.
struct ScenesDataset final : Dataset {
    std::vector<sc::Sample> samples;

    HeldoutScore score(const models::Seq2Seq &model, std::size_t limit) const override {
        const ScenesScore s = evaluate_scenes(model, samples, target_vocab, limit, heldout.images);
        return {s.exact_match,
                static_cast<std::size_t>(s.scenes),
                {{"attention_hits", s.attention_hits}},
                printed("held-out exact match %.2f%%, attention hits the object %.2f%% (%d scenes, %d words)",
                        100.0 * s.exact_match, 100.0 * s.attention_hits, s.scenes, s.words)};
    }
};

class ScenesTask final : public FixedTask {
  public:
    ScenesTask()
        : FixedTask({"scenes",
                     // Conv 3→16→16→62 (+ 2 position columns: dh = 64) over the grid (its cells the source
                     // positions), the rest as scenes_task.hpp says; a caption and its end token.
                     {.task = "scenes",
                      .embedding = 16,
                      .encoder = models::EncoderKind::conv,
                      .encoder_hidden = 62,
                      .bidirectional = false,
                      .image_size = sc::image_size,
                      .conv_channels = 16,
                      .decoder_hidden = 64,
                      .attention_dim = 32,
                      .max_source_len = (sc::image_size / 4) * (sc::image_size / 4),
                      .max_target_len = static_cast<int>(sc::max_caption_tokens + 2)},
                     {"reads images", "(embeddings 16, conv 62)"},
                     io::Tokenizer::words,
                     sc::default_train_scenes,
                     sc::default_heldout_scenes,
                     // The additive model passed 95% held-out exact match (200-scene checks) by
                     // step ~5,000 of a 6,000-step run (seed 1); 8,000 leaves room for the slower
                     // score functions (~3 minutes each).
                     8000,
                     "scenes"}) {}

    // The first held-out scene of seed 1, whose composition no seed trains on (held-out
    // compositions are chosen by their hash), so every run is probed on the same unseen picture.
    std::string default_probe() const override {
        static const std::string probe = sc::describe(sc::make_scenes(1, 0, 1).heldout.front().scene);
        return probe;
    }

    Probe probe(const std::string &input, const Dataset &, const models::ModelConfig &config) const override {
        return {[pixels = sc::render(sc::parse_description(input))](const models::Seq2Seq &network) {
                    return network.encode_image(pixels);
                },
                cell_names(config)};
    }

    std::string summary(const Dataset &data, const models::ModelConfig &config) const override {
        return printed("task scenes: %zu train / %zu held-out scenes, %dx%d pixels, %d cells, %d caption words",
                       data.train.size(), data.heldout.size(), config.image_size, config.image_size,
                       config.max_source_len, config.target_vocab);
    }

    // A scene description, or a .ppm picture averaged down to the model's input; --ppm OUT gets
    // the image the model read.
    DecodeReport decode(const io::Model &model, const DecodeRequest &request) const override {
        DecodeReport r;
        std::vector<std::uint8_t> pixels;
        if (request.file) {
            try {
                const io::RgbImage image = io::read_ppm(*request.file, sc::max_upload_side);
                pixels = sc::to_model_image(image.pixels, image.width, image.height, 3);
            } catch (const Error &e) {
                throw InputError(e.code(), "\"" + request.input + "\": " + std::string(e.text()), e.details());
            }
        } else {
            const sc::Scene scene = sc::parse_description(request.input);
            pixels = sc::render(scene);
            r.text =
                "scene: " + sc::describe(scene) + "\nits caption by the grammar: " + sc::caption(scene).text() + "\n";
        }
        const models::Seq2Seq &net = model.network();
        const auto steps = net.greedy(net.encode_image(pixels), io::Vocabulary::bos, io::Vocabulary::eos);
        std::vector<int> ids;
        for (const auto &s : steps) ids.push_back(peak_cell(s.probs));
        r.text += "caption: " + model.target_vocab().join(ids) + "\n";
        const int grid = net.config().image_size / 4;
        r.text += printed("\nattention weights (%%) over the %dx%d grid, per word\n", grid, grid);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const Vec &w = steps[i].attention.weights;
            r.text += printed("\n%s (peak at row %d, column %d)\n", model.target_vocab().token(ids[i]).c_str(),
                              peak_cell(w) / grid, peak_cell(w) % grid);
            for (int row = 0; row < grid; ++row) {
                for (int col = 0; col < grid; ++col) {
                    const int pct = static_cast<int>(100.0f * w(row * grid + col) + 0.5f);
                    r.text += printed("%4s", pct == 0 ? "." : std::to_string(pct).c_str());
                }
                r.text += "\n";
            }
        }
        if (request.options.count("ppm")) r.files["ppm"] = io::write_ppm({sc::image_size, sc::image_size, pixels});
        return r;
    }

    CommandLine command_line() const override {
        CommandLine c = FixedTask::command_line();
        c.input_file = ".ppm";
        c.decode_usage = "  apg decode SCENES_FILE \"small red circle at 10,12; large blue square at 24,20\" | "
                         "image.ppm [--ppm OUT]\n";
        return c;
    }

  protected:
    std::unique_ptr<Dataset> draw(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count,
                                  const io::Vocabulary &target) const override {
        sc::ScenesData data = sc::make_scenes(seed, train_count, heldout_count);
        auto d = std::make_unique<ScenesDataset>();
        for (auto [samples, pairs] : {std::pair{&data.train, &d->train}, std::pair{&data.heldout, &d->heldout}})
            for (sc::Sample &s : *samples) {
                pairs->images.push_back(std::move(s.pixels));
                pairs->targets.push_back(target.encode(s.caption.tokens));
            }
        d->samples = std::move(data.heldout);
        return d;
    }
    io::Vocabulary target_vocabulary() const override { return caption_vocabulary(); }
};

const ScenesTask &scenes_instance() {
    static const ScenesTask task;
    return task;
}

} // namespace

models::ModelConfig scenes_config(attention::ScoreKind score, models::AttentionStyle style) {
    return scenes_instance().config(score, style, models::EncoderKind::conv, scenes_instance().shape());
}

TrainOptions scenes_options() { return scenes_task().options(models::EncoderKind::conv); }

int peak_cell(const Vec &weights) {
    Eigen::Index best = 0;
    weights.maxCoeff(&best);
    return static_cast<int>(best);
}

bool cell_in_box(int cell, int grid, int image_size, const sc::Box &box) {
    // Twice the centre's coordinates, so a cell of an even number of pixels has an integer centre.
    const int side = image_size / grid, r = cell / grid, c = cell % grid;
    const int cx2 = 2 * c * side + side - 1, cy2 = 2 * r * side + side - 1;
    return cx2 >= 2 * box.x0 && cx2 <= 2 * box.x1 && cy2 >= 2 * box.y0 && cy2 <= 2 * box.y1;
}

ScenesScore evaluate_scenes(const models::Seq2Seq &model, std::span<const sc::Sample> samples,
                            const io::Vocabulary &target_vocab, std::size_t limit,
                            std::span<const std::vector<std::uint8_t>> images) {
    const std::size_t n = limit == 0 ? samples.size() : std::min(limit, samples.size());
    const int grid = model.config().image_size / 4;
    ScenesScore score;
    int exact = 0, hits = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const sc::Sample &s = samples[k];
        const models::EncoderOutput encoded = model.encode_image(images.empty() ? s.pixels : images[k]);
        const std::vector<int> target = target_vocab.encode(s.caption.tokens);
        // exact match (greedy)
        std::vector<int> output;
        bool ended = false;
        for (const auto &step : model.greedy(encoded, special_tokens.start, special_tokens.end)) {
            const int best = peak_cell(step.probs);
            if (best == special_tokens.end) {
                ended = true;
                break;
            }
            output.push_back(best);
        }
        exact += ended && output == target;
        // attention peaks, teacher forced
        Vec state = encoded.initial_state;
        int prev = special_tokens.start;
        Vec weights; // location attention reads the last step's (none at the first)
        for (std::size_t i = 0; i < target.size(); ++i) {
            attention::StepOptions options;
            options.previous = {weights.data(), static_cast<std::size_t>(weights.size())};
            const models::DecoderStep step = model.step(encoded, state, prev, options);
            weights = step.attention.weights;
            const std::string &word = s.caption.tokens[i];
            const bool named =
                std::find(sc::colour_names.begin(), sc::colour_names.end(), word) != sc::colour_names.end() ||
                std::find(sc::shape_names.begin(), sc::shape_names.end(), word) != sc::shape_names.end();
            if (named) {
                const sc::Object &o = s.scene.objects[static_cast<std::size_t>(s.caption.object_of[i])];
                hits += cell_in_box(peak_cell(step.attention.weights), grid, model.config().image_size, o.box());
                ++score.words;
            }
            state = step.state;
            prev = target[i];
        }
    }
    score.scenes = static_cast<int>(n);
    score.exact_match = n ? static_cast<double>(exact) / static_cast<double>(n) : 0.0;
    score.attention_hits = score.words ? static_cast<double>(hits) / score.words : 0.0;
    return score;
}

const Task &scenes_task() { return scenes_instance(); }

} // namespace apg::train
