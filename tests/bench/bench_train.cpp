// Training throughput on the benchmark model of train/text_task.cpp: dates, BiGRU encoder hidden 64, decoder
// GRU 128, additive attention 64, embeddings 32, batch 32, Adam 3e-3 (PyTorch 1.13, CPU, one
// thread: about 315 sequences/s on this machine), and the same for the shipped transformer-encoder
// model (2 layers x 4 heads, d 64, feed-forward 128). Prints JSON lines in the format of bench.hpp:
//   {"section":"train","case":…,"impl":<argv[1]>,"ns":<ns per sequence>,"flops":<flops per sequence>}
// and, for native and wasm, how many sequences and seconds training needs to pass 99% held-out
// exact match (checked every 25 steps on 500 held-out pairs; evaluation time not counted). Times
// are the process's CPU time (bench.hpp), which on a shared machine leaves out the other processes.
// With --profile [gru|transformer] it only runs 30 steps of each model (or the one named), for a
// profiler to say where a step's time goes:
//   valgrind --tool=callgrind --toggle-collect='apg::train::Trainer::step()'
//     build/native/bench_train native --profile gru
#include "bench.hpp"
#include "io/vocab.hpp"
#include "model_flops.hpp"
#include "train/text_task.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

using namespace apg;

namespace {

double seconds_since(double t0) { return bench::cpu_seconds() - t0; }

void emit(const std::string &name, const std::string &impl, double ns, double flops) {
    std::printf("{\"section\":\"train\",\"case\":\"%s\",\"impl\":\"%s\",\"ns\":%.1f,\"flops\":%.0f}\n", name.c_str(),
                impl.c_str(), ns, flops);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
    const std::string impl = argc > 1 ? argv[1] : "native";
    const train::PreparedTask task = train::prepare_task("dates", 1);
    const models::ModelConfig config =
        train::recipe_config(task, attention::ScoreKind::additive, models::AttentionStyle::bahdanau);
    const train::SpecialTokens tokens{io::Vocabulary::pad, io::Vocabulary::bos, io::Vocabulary::eos};
    train::TrainOptions options = train::recipe_options("dates");
    options.learning_rate = 3e-3f;
    options.batch_size = 32;

    double mean_n = 0, mean_m = 0;
    for (std::size_t k = 0; k < task.train.size(); ++k) {
        mean_n += static_cast<double>(task.train.sources[k].size());
        mean_m += static_cast<double>(task.train.targets[k].size()) + 1;
    }
    mean_n /= static_cast<double>(task.train.size());
    mean_m /= static_cast<double>(task.train.size());
    const double flops_per_sequence = 3 * 2 * bench::forward_macs(config, mean_n, mean_m);
    const models::ModelConfig transformer = train::recipe_config(
        task, attention::ScoreKind::additive, models::AttentionStyle::bahdanau, models::EncoderKind::transformer);

    if (argc > 2 && std::string(argv[2]) == "--profile") {
        const std::string which = argc > 3 ? argv[3] : "both"; // gru | transformer | both
        for (const models::ModelConfig *c : {&config, &transformer}) {
            if (which != "both" && (which == "gru") != (c == &config)) continue;
            models::Seq2Seq network(*c, 1);
            options.steps = 100;
            train::Trainer trainer(network, task.train, {}, tokens, options);
            for (int i = 0; i < 30; ++i) trainer.step();
        }
        return 0;
    }

    // Throughput: the fastest of 8 rounds of 10 steps after 10 warm-up steps (on a shared
    // machine the fastest round is the one nobody interrupted).
    auto throughput = [&](const models::ModelConfig &c, const std::string &name, double flops) {
        models::Seq2Seq network(c, 1);
        options.steps = 100;
        train::Trainer trainer(network, task.train, {}, tokens, options);
        for (int i = 0; i < 10; ++i) trainer.step();
        double best = 1e30;
        for (int round = 0; round < 8; ++round) {
            const long long before = trainer.progress().sequences;
            const double t0 = bench::cpu_seconds();
            for (int i = 0; i < 10; ++i) trainer.step();
            const double seconds = seconds_since(t0);
            best = std::min(best, seconds / static_cast<double>(trainer.progress().sequences - before));
        }
        emit(name, impl, best * 1e9, flops);
        return 1.0 / best;
    };
    std::fprintf(stderr, "%s: %.0f sequences/s (PyTorch reference 315; targets native 945, wasm 472)\n", impl.c_str(),
                 throughput(config, "dates additive bahdanau b32: one sequence", flops_per_sequence));
    // The shipped self-attention model's encoder (2 layers x 4 heads, d 64) under the same decoder.
    std::fprintf(stderr, "%s: transformer encoder: %.0f sequences/s\n", impl.c_str(),
                 throughput(transformer, "dates transformer 2x4 + additive b32: one sequence",
                            3 * 2 * bench::forward_macs(transformer, mean_n, mean_m)));

    if (impl == "native" || impl == "wasm") {
        models::Seq2Seq network(config, 1);
        options.steps = 1500;
        train::EncodedPairs heldout = task.heldout;
        train::Trainer trainer(network, task.train, {}, tokens, options);
        double train_seconds = 0, accuracy = 0;
        while (!trainer.done()) {
            const double t0 = bench::cpu_seconds();
            for (int i = 0; i < 25 && !trainer.done(); ++i) trainer.step();
            train_seconds += seconds_since(t0);
            accuracy = train::exact_match(network, heldout, tokens, 500);
            if (accuracy >= 0.99) break;
        }
        emit("dates additive bahdanau b32: train to 99% held-out", impl, train_seconds * 1e9,
             flops_per_sequence * static_cast<double>(trainer.progress().sequences));
        std::fprintf(stderr, "%s: %.1f%% held-out exact match after %lld sequences, %.1f s of training\n", impl.c_str(),
                     100 * accuracy, trainer.progress().sequences, train_seconds);
    }
    return 0;
}
