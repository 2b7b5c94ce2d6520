// apg — the native command line: train a model, evaluate it, decode with it.
//   apg train --task T --score S --style bahdanau|luong --seed N --out FILE [options]
//   apg eval FILE [--limit N] [--by-length W]
//   apg decode FILE INPUT [options]
// Every task is reached through its descriptor (train/task.hpp): its usage lines, its options,
// its data and its reports; nothing here knows one task from another. All file I/O lives here;
// the library only sees bytes.
#include "cli/output.hpp"
#include "decode/length_accuracy.hpp"
#include "io/model.hpp"
#include "models/transformer_decoder.hpp"
#include "train/run.hpp"
#include "train/task.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace apg;
using cli::read_file;
using cli::write_file;

namespace {

// Each task's lines once (the text tasks share theirs), in the order of all_tasks().
std::string usage() {
    std::vector<const train::Task *> all(train::all_tasks().begin(), train::all_tasks().end());
    all.push_back(&train::pairs_task());
    std::string train_lines, decode_lines;
    std::set<std::string> seen;
    for (const train::Task *task : all) {
        const train::CommandLine c = task->command_line();
        if (seen.insert(c.train_usage).second) train_lines += c.train_usage;
        if (seen.insert(c.decode_usage).second) decode_lines += c.decode_usage;
    }
    return "usage:\n" + train_lines +
           "  apg eval FILE [--limit N] [--by-length W]   held-out exact match of a checkpoint on its task\n"
           "                                   (and per bucket of W source lengths)\n" +
           decode_lines;
}

// --key value pairs and bare flags after the command; positional arguments in order.
struct Args {
    std::map<std::string, std::string> options;
    std::vector<std::string> positional;
    std::string get(const std::string &key) const {
        auto it = options.find(key);
        if (it == options.end()) throw std::invalid_argument("missing --" + key + "\n" + usage());
        return it->second;
    }
    bool has(const std::string &key) const { return options.count(key) > 0; }
    long long whole(const std::string &key) const { return train::whole_option(key, get(key)); }
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

// One path with the page's trainer module: train::Run builds data, model and trainer.
int cmd_train(const Args &a, const std::string &command_line) {
    train::RunConfig rc;
    rc.task = a.get("task");
    if (a.has("decoder")) rc.decoder = models::parse_decoder_kind(a.get("decoder"));
    // The Transformer decoder takes one score and one style; they need not be spelled out.
    const bool transformer = rc.decoder == models::DecoderKind::transformer;
    rc.score = attention::parse_score_kind(transformer && !a.has("score") ? "scaled_dot" : a.get("score"));
    rc.style = models::parse_attention_style(transformer && !a.has("style") ? "luong" : a.get("style"));
    if (a.has("encoder")) rc.encoder = models::parse_encoder_kind(a.get("encoder"));
    rc.seed = static_cast<std::uint64_t>(a.whole("seed"));
    const std::string out = a.get("out");
    if (a.has("activation")) rc.activation = nn::parse_activation(a.get("activation"));
    if (a.has("steps")) rc.steps = static_cast<int>(a.whole("steps"));
    if (a.has("batch")) rc.batch = static_cast<int>(a.whole("batch"));
    if (a.has("lr")) rc.learning_rate = train::number_option("lr", a.get("lr"));
    if (a.has("eval-every")) rc.eval_every = static_cast<int>(a.whole("eval-every"));
    // Clamped, not wrapped, into an int: the config's check then names the value as it was too big.
    auto bounded = [&](const char *key) { return static_cast<int>(std::clamp(a.whole(key), -1LL, 1LL << 30)); };
    if (a.has("location-filters")) rc.location_filters = bounded("location-filters");
    if (a.has("location-width")) rc.location_width = bounded("location-width");
    if (const train::Task *task = train::find_task(rc.task)) {
        const std::string count = task->command_line().count_option;
        if (!count.empty() && a.has(count)) rc.train_count = static_cast<std::size_t>(a.whole(count));
    }
    rc.command = command_line;
    const bool quiet = a.has("quiet");
    train::Run run(rc);
    std::fprintf(stderr, "%s\n", run.task().summary(run.data(), run.model_config()).c_str());
    train::RunProgress last;
    while (!run.done()) {
        last = run.step(10);
        if (!quiet) draw_progress(last);
    }
    if (!quiet) std::fprintf(stderr, "\n");
    if (last.diverged) std::fprintf(stderr, "apg: %s\n", last.message.c_str());
    const train::HeldoutScore score = run.score();
    const auto bytes = run.trained_model(score).save();
    write_file(out, bytes);
    std::printf("%s: %s, %.0f seq/s, %s, %zu bytes\n", out.c_str(), score.text.c_str(), last.sequences_per_second,
                clock_text(last.elapsed_seconds).c_str(), bytes.size());
    return last.diverged ? 1 : 0;
}

io::Model load(const std::string &path) { return io::Model::load(read_file(path)); }

int cmd_eval(const Args &a) {
    if (a.positional.size() != 1) throw std::invalid_argument(usage());
    const io::Model model = load(a.positional[0]);
    const std::size_t limit = a.has("limit") ? static_cast<std::size_t>(a.whole("limit")) : 0;
    const std::unique_ptr<train::Dataset> data = train::task_of(model.config()).heldout(model);
    const train::HeldoutScore score = data->score(model.network(), limit);
    const models::ModelConfig &c = model.config();
    std::printf("%s: task %s, encoder %s, score %s, style %s: %s\n", a.positional[0].c_str(), c.task.c_str(),
                std::string(models::name(c.encoder)).c_str(), std::string(attention::name(c.score)).c_str(),
                std::string(models::name(c.style)).c_str(), score.text.c_str());
    if (a.has("by-length") && !data->heldout.sources.empty()) {
        const decode::LengthAccuracy by = decode::accuracy_by_length(
            model.network(), data->heldout.sources, data->heldout.targets, io::Vocabulary::bos, io::Vocabulary::eos,
            static_cast<int>(a.whole("by-length")), limit);
        for (const decode::LengthBucket &b : by.buckets)
            std::printf("  source %3d-%-3d %5d pairs  exact match %6.2f%%\n", b.min_length, b.max_length, b.pairs,
                        100.0 * b.exact_match());
    }
    return 0;
}

// apg decode FILE INPUT, or FILE --<input option> INPUT for a task that names its input so; an
// input with the ending of the files the task reads is read from that file.
int cmd_decode(const Args &a) {
    if (a.positional.empty()) throw std::invalid_argument(usage());
    const io::Model model = load(a.positional[0]);
    const train::Task &task = train::task_of(model.config());
    const train::CommandLine cl = task.command_line();
    train::DecodeRequest request;
    request.options = a.options;
    if (!cl.input_option.empty() && a.has(cl.input_option) && a.positional.size() == 1) {
        request.input = a.get(cl.input_option);
        request.options.erase(cl.input_option);
    } else if (a.positional.size() == 2) {
        request.input = a.positional[1];
    } else {
        throw std::invalid_argument(usage());
    }
    const std::string &ending = cl.input_file;
    if (!ending.empty() && request.input.size() > ending.size() &&
        request.input.compare(request.input.size() - ending.size(), ending.size(), ending) == 0)
        request.file = read_file(request.input);
    const train::DecodeReport report = task.decode(model, request);
    std::fputs(report.text.c_str(), stdout);
    for (const auto &[option, bytes] : report.files) write_file(a.get(option), bytes);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fputs(usage().c_str(), stderr);
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
        std::fprintf(stderr, "unknown command \"%s\"\n%s", command.c_str(), usage().c_str());
        return 2;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "apg: %s\n", e.what());
        return 1;
    }
}
