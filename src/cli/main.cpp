// apg — the native command line: train a model, evaluate it, decode with it.
//   apg train --task dates|zh|reverse --score S --style bahdanau|luong --seed N --out FILE [options]
//   apg eval FILE [--limit N]
//   apg decode FILE "text"
// All file I/O lives here; the library only sees bytes.
#include "cli/output.hpp"
#include "cli/scenes.hpp"
#include "cli/speech.hpp"
#include "decode/length_accuracy.hpp"
#include "io/model.hpp"
#include "train/prepare.hpp"
#include "train/run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace apg;
using cli::read_file;
using cli::write_file;

namespace {

const char *usage = R"(usage:
  apg train --task dates|zh|reverse
            --score dot|scaled_dot|general|additive|cosine|scaled_cosine|location|none (none: no attention)
            [--location-filters N] [--location-width N (odd)] (location; default 8, 7)
            --style bahdanau|luong --seed N --out FILE [--encoder gru|transformer]
            [--decoder gru|transformer (transformer: score and style default to scaled_dot, luong)]
            [--activation relu|gelu (transformer)]
            [--steps N] [--batch N] [--lr X] [--eval-every N] [--quiet]
  apg train --task scenes --score S --style bahdanau|luong --seed N --out FILE [--scenes N] [...]
  apg train --task speech --score S --style bahdanau|luong --seed N --out FILE [--utterances N] [...]
  apg eval FILE [--limit N] [--by-length W]   held-out exact match of a checkpoint on its task
                                   (and per bucket of W source lengths)
  apg decode FILE "text"           output and alignment matrix
  apg decode SPEECH_FILE --phrase "how much wood" [--seed N] [--rate X] [--noise X]
  apg decode SCENES_FILE "small red circle at 10,12; large blue square at 24,20" | image.ppm [--ppm OUT]
)";

// --key value pairs and bare flags after the command; positional arguments in order.
struct Args {
    std::map<std::string, std::string> options;
    std::vector<std::string> positional;
    std::string get(const std::string &key) const {
        auto it = options.find(key);
        if (it == options.end()) throw std::invalid_argument("missing --" + key + "\n" + usage);
        return it->second;
    }
    std::string get(const std::string &key, const std::string &fallback) const {
        auto it = options.find(key);
        return it == options.end() ? fallback : it->second;
    }
    bool has(const std::string &key) const { return options.count(key) > 0; }
};

Args parse(int argc, char **argv, int first) {
    Args a;
    for (int i = first; i < argc; ++i) {
        std::string s = argv[i];
        if (s.rfind("--", 0) == 0) {
            const std::string key = s.substr(2);
            if (key == "quiet")
                a.options[key] = "1";
            else if (i + 1 < argc)
                a.options[key] = argv[++i];
            else
                throw std::invalid_argument("--" + key + " needs a value");
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

long long to_int(const std::string &key, const std::string &value) {
    try {
        std::size_t used = 0;
        const long long v = std::stoll(value, &used);
        if (used == value.size()) return v;
    } catch (const std::exception &) {
    }
    throw std::invalid_argument("--" + key + " needs an integer, got \"" + value + "\"");
}

std::string clock_text(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

void draw_progress(const train::Progress &p) {
    const int width = 24;
    const double frac = p.total_steps ? static_cast<double>(p.step) / p.total_steps : 1.0;
    const int filled = static_cast<int>(frac * width);
    const double eta = p.step > 0 ? p.elapsed_seconds / p.step * (p.total_steps - p.step) : 0.0;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(width - filled), '.');
    std::fprintf(stderr, "\r[%s] %3d%%  step %d/%d  loss %.4f  acc %5.1f%%  %.0f seq/s  ETA %s", bar.c_str(),
                 static_cast<int>(frac * 100), p.step, p.total_steps, p.loss, 100.0 * p.token_accuracy,
                 p.sequences_per_second, clock_text(eta).c_str());
    if (p.heldout_exact_match >= 0) std::fprintf(stderr, "  held-out %.1f%%", 100.0 * p.heldout_exact_match);
    std::fflush(stderr);
}

int cmd_train(const Args &a, const std::string &command_line) {
    if (a.get("task") == "scenes") {
        cli::SceneTraining r;
        r.score = attention::parse_score_kind(a.get("score"));
        r.style = models::parse_attention_style(a.get("style"));
        r.seed = static_cast<std::uint64_t>(to_int("seed", a.get("seed")));
        r.out = a.get("out");
        r.command_line = command_line;
        r.steps = a.has("steps") ? static_cast<int>(to_int("steps", a.get("steps"))) : 0;
        r.batch = a.has("batch") ? static_cast<int>(to_int("batch", a.get("batch"))) : 0;
        r.eval_every = a.has("eval-every") ? static_cast<int>(to_int("eval-every", a.get("eval-every"))) : 0;
        r.learning_rate = a.has("lr") ? std::stof(a.get("lr")) : 0.0f;
        r.train_scenes = a.has("scenes") ? static_cast<std::size_t>(to_int("scenes", a.get("scenes"))) : 0;
        r.quiet = a.has("quiet");
        return cli::train_scenes(r);
    }
    if (a.get("task") == "speech") {
        cli::SpeechTraining r;
        r.score = attention::parse_score_kind(a.get("score"));
        r.style = models::parse_attention_style(a.get("style"));
        r.seed = static_cast<std::uint64_t>(to_int("seed", a.get("seed")));
        r.out = a.get("out");
        r.command_line = command_line;
        r.steps = a.has("steps") ? static_cast<int>(to_int("steps", a.get("steps"))) : 0;
        r.batch = a.has("batch") ? static_cast<int>(to_int("batch", a.get("batch"))) : 0;
        r.eval_every = a.has("eval-every") ? static_cast<int>(to_int("eval-every", a.get("eval-every"))) : 0;
        r.learning_rate = a.has("lr") ? std::stof(a.get("lr")) : 0.0f;
        r.utterances = a.has("utterances") ? static_cast<std::size_t>(to_int("utterances", a.get("utterances"))) : 0;
        r.quiet = a.has("quiet");
        return cli::train_speech(r);
    }
    // One path with the page's trainer module: train::Run builds data, model and trainer.
    train::RunConfig rc;
    rc.task = a.get("task");
    rc.decoder = models::parse_decoder_kind(a.get("decoder", "gru"));
    const bool transformer_decoder = rc.decoder == models::DecoderKind::transformer;
    rc.score = attention::parse_score_kind(transformer_decoder ? a.get("score", "scaled_dot") : a.get("score"));
    rc.style = models::parse_attention_style(transformer_decoder ? a.get("style", "luong") : a.get("style"));
    rc.encoder = models::parse_encoder_kind(a.get("encoder", "gru"));
    rc.seed = static_cast<std::uint64_t>(to_int("seed", a.get("seed")));
    const std::string out = a.get("out");
    if (a.has("activation")) rc.activation = nn::parse_activation(a.get("activation"));
    if (a.has("steps")) rc.steps = static_cast<int>(to_int("steps", a.get("steps")));
    if (a.has("batch")) rc.batch = static_cast<int>(to_int("batch", a.get("batch")));
    if (a.has("lr")) rc.learning_rate = std::stof(a.get("lr"));
    if (a.has("eval-every")) rc.eval_every = static_cast<int>(to_int("eval-every", a.get("eval-every")));
    // Clamped, not wrapped, into an int: the config's check then names the value as it was too big.
    auto bounded = [&](const char *key) {
        return static_cast<int>(std::clamp(to_int(key, a.get(key)), -1LL, 1LL << 30));
    };
    if (a.has("location-filters")) rc.location_filters = bounded("location-filters");
    if (a.has("location-width")) rc.location_width = bounded("location-width");
    rc.command = command_line;
    const bool quiet = a.has("quiet");
    train::Run run(rc);
    const models::ModelConfig &config = run.model_config();
    std::fprintf(stderr, "task %s: %zu train / %zu held-out pairs, vocabularies %d / %d, max lengths %d / %d\n",
                 rc.task.c_str(), run.data().train.size(), run.data().heldout.size(), config.source_vocab,
                 config.target_vocab, config.max_source_len, config.max_target_len);
    train::RunProgress last;
    while (!run.done()) {
        last = run.step(10);
        if (!quiet) draw_progress(last);
    }
    if (!quiet) std::fprintf(stderr, "\n");
    if (last.diverged) std::fprintf(stderr, "apg: %s\n", last.message.c_str());
    const io::Model model = run.trained_model();
    const double accuracy = model.training().value("heldout_exact_match", 0.0);
    const auto bytes = model.save();
    write_file(out, bytes);
    std::printf("%s: held-out exact match %.2f%% (%zu pairs), %.0f seq/s, %s, %zu bytes\n", out.c_str(),
                100.0 * accuracy, run.data().heldout.size(), last.sequences_per_second,
                clock_text(last.elapsed_seconds).c_str(), bytes.size());
    return last.diverged ? 1 : 0;
}

io::Model load(const std::string &path) { return io::Model::load(read_file(path)); }

int cmd_eval(const Args &a) {
    if (a.positional.size() != 1) throw std::invalid_argument(usage);
    const io::Model model = load(a.positional[0]);
    const std::size_t limit = a.has("limit") ? static_cast<std::size_t>(to_int("limit", a.get("limit"))) : 0;
    if (model.config().encoder == models::EncoderKind::conv) return cli::eval_scenes(model, a.positional[0], limit);
    if (model.config().encoder == models::EncoderKind::audio) return cli::eval_speech(model, a.positional[0], limit);
    const auto seed = model.training().value("data_seed", std::uint64_t{1});
    const train::TaskData data = train::make_task(model.config().task, seed);
    const train::EncodedPairs heldout =
        train::encode_examples(data.heldout, model.source_vocab(), model.target_vocab());
    const double accuracy = train::exact_match(model.network(), heldout,
                                               {io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos}, limit);
    const std::size_t n = limit ? std::min(limit, heldout.size()) : heldout.size();
    std::printf("%s: task %s, encoder %s, score %s, style %s: held-out exact match %.2f%% (%zu pairs)\n",
                a.positional[0].c_str(), model.config().task.c_str(),
                std::string(models::name(model.config().encoder)).c_str(),
                std::string(attention::name(model.config().score)).c_str(),
                std::string(models::name(model.config().style)).c_str(), 100.0 * accuracy, n);
    if (a.has("by-length")) {
        const decode::LengthAccuracy by = decode::accuracy_by_length(
            model.network(), heldout.sources, heldout.targets, io::Vocabulary::bos, io::Vocabulary::eos,
            static_cast<int>(to_int("by-length", a.get("by-length"))), limit);
        for (const decode::LengthBucket &b : by.buckets)
            std::printf("  source %3d-%-3d %5d pairs  exact match %6.2f%%\n", b.min_length, b.max_length, b.pairs,
                        100.0 * b.exact_match());
    }
    return 0;
}

// Pads or cuts a cell to a fixed display width (UTF-8 aware: counts code points, CJK as two).
std::string cell(const std::string &text, int width) {
    int cols = 0;
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        const int w = len >= 3 ? 2 : 1;
        if (cols + w > width) break;
        out.append(text, i, len);
        cols += w;
        i += len;
    }
    return out + std::string(static_cast<std::size_t>(width - cols), ' ');
}

int cmd_decode(const Args &a) {
    if (a.has("phrase")) {
        if (a.positional.size() != 1) throw std::invalid_argument(usage);
        const io::Model model = load(a.positional[0]);
        return cli::decode_speech(
            model, a.get("phrase"), a.has("seed") ? static_cast<std::uint64_t>(to_int("seed", a.get("seed"))) : 1,
            a.has("rate") ? std::stof(a.get("rate")) : 1.0f, a.has("noise") ? std::stof(a.get("noise")) : 0.1f);
    }
    if (a.positional.size() != 2) throw std::invalid_argument(usage);
    const io::Model model = load(a.positional[0]);
    if (model.config().encoder == models::EncoderKind::conv)
        return cli::decode_scene(model, a.positional[1], a.get("ppm", ""));
    const io::Translation t = model.translate(a.positional[1]);
    std::printf("%s\n", t.output_text.c_str());
    if (!t.ended) std::printf("(no end token within %d steps)\n", model.config().max_target_len + 1);
    if (model.config().score == attention::ScoreKind::none) {
        std::printf("\nno attention: the decoder read one fixed context (the encoder's final states) at every step\n");
        return 0;
    }
    // Alignment: one row per output token, one column per source token, weights in percent.
    const int w = 6; // a column: up to 5 display cells of the token, then a space
    std::printf("\nattention weights (%%), rows = output, columns = source\n%s", cell("", 8).c_str());
    for (const auto &s : t.source_tokens) std::printf("%s ", cell(s == " " ? "_" : s, w - 1).c_str());
    std::printf("\n");
    for (Eigen::Index i = 0; i < t.weights.rows(); ++i) {
        const std::string out = i < static_cast<Eigen::Index>(t.output_tokens.size())
                                    ? t.output_tokens[static_cast<std::size_t>(i)]
                                    : std::string("</s>");
        std::printf("%s", cell(out, 8).c_str());
        for (Eigen::Index j = 0; j < t.weights.cols(); ++j) {
            const int pct = static_cast<int>(100.0f * t.weights(i, j) + 0.5f);
            std::printf("%s", cell(pct == 0 ? "." : std::to_string(pct), w).c_str());
        }
        std::printf("\n");
    }
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fputs(usage, stderr);
        return 2;
    }
    const std::string command = argv[1];
    std::string command_line = "apg";
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        command_line += " " + (arg.find(' ') != std::string::npos ? "\"" + arg + "\"" : arg);
    }
    models::register_transformer_decoder(); // eval and decode read any checkpoint
    try {
        const Args args = parse(argc, argv, 2);
        if (command == "train") return cmd_train(args, command_line);
        if (command == "eval") return cmd_eval(args);
        if (command == "decode") return cmd_decode(args);
        std::fprintf(stderr, "unknown command \"%s\"\n%s", command.c_str(), usage);
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "apg: %s\n", e.what());
        return 1;
    }
}
