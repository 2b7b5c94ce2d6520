// What the command line's commands share: reading a file whole, writing one (a checkpoint), and
// the progress line a train command prints every 100 steps.
#pragma once

#include "train/trainer.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace apg::cli {

inline std::vector<std::uint8_t> read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open \"" + path + "\"");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::string &path, const std::vector<std::uint8_t> &bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write \"" + path + "\"");
}

// heldout: how the task names its held-out figure ("held-out exact" for speech, whose CER is
// printed at the end; "held-out" for scenes).
inline void print_progress(const train::Progress &p, const char *heldout) {
    const std::string figure = p.heldout_exact_match >= 0 ? "  " + std::string(heldout) + " " +
                                                                std::to_string(100.0 * p.heldout_exact_match) + "%"
                                                          : "";
    std::fprintf(stderr, "step %d/%d  loss %.4f  acc %5.1f%%  %.0f seq/s  %.0f s%s\n", p.step, p.total_steps, p.loss,
                 100.0 * p.token_accuracy, p.sequences_per_second, p.elapsed_seconds, figure.c_str());
}

} // namespace apg::cli
