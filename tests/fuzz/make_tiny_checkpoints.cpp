// Writes small checkpoints of every kind into the directory given, as seeds for fuzz_checkpoint:
// text models (6 content-based score functions and location-aware attention × 2 styles × BiGRU,
// one-way GRU and Transformer encoders, the fixed-vector baseline), location-aware models on
// dates-like characters, audio models with 0, 1 and 2 time reductions and image models. A few KB
// each instead of the shipped models' ~800 KB, so the fuzzer runs hundreds of times faster on
// them while reaching the same loaders and decoders.
#include "io/model.hpp"

#include <cstdio>
#include <fstream>
#include <string>

using namespace apg;

namespace {

int written = 0;

void write(const char *dir, const std::string &name, const models::ModelConfig &c, const io::Vocabulary &source,
           const io::Vocabulary &target) {
    const io::Model model(models::Seq2Seq(c, 1 + written), source, target, {{"seed", written}});
    const auto bytes = model.save();
    std::ofstream(std::string(dir) + "/tiny-" + name, std::ios::binary)
        .write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    ++written;
}

models::ModelConfig small(attention::ScoreKind score, models::AttentionStyle style, const io::Vocabulary &source,
                          const io::Vocabulary &target) {
    models::ModelConfig c;
    c.task = "tiny";
    c.score = score;
    c.style = style;
    c.source_vocab = source.size();
    c.target_vocab = target.size();
    c.embedding = 4;
    c.encoder_hidden = 2;
    c.attention_dim = 3;
    c.location_filters = 2;
    c.location_width = 3;
    c.max_source_len = 12;
    c.max_target_len = 6;
    return c;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_tiny_checkpoints DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    using attention::ScoreKind;
    using models::AttentionStyle;
    const io::Vocabulary words =
        io::Vocabulary::build({{"tom", "chase", "jerry", "cat", "汤姆"}}, io::Tokenizer::words);
    const io::Vocabulary characters =
        io::Vocabulary::build({{"1", "2", " ", "n", "o", "v", "-"}}, io::Tokenizer::characters);
    std::vector<ScoreKind> scores(attention::all_score_kinds.begin(), attention::all_score_kinds.end());
    scores.push_back(ScoreKind::location);
    for (ScoreKind score : scores) {
        for (AttentionStyle style : {AttentionStyle::bahdanau, AttentionStyle::luong}) {
            for (const char *encoder : {"bigru", "gru", "transformer"}) {
                const bool chars = (written % 2) == 1;
                const io::Vocabulary &source = chars ? characters : words, &target = chars ? words : characters;
                models::ModelConfig c = small(score, style, source, target);
                c.bidirectional = std::string(encoder) == "bigru";
                if (std::string(encoder) == "transformer") {
                    c.encoder = models::EncoderKind::transformer;
                    c.heads = 2;
                    c.layers = 1;
                    c.ff_hidden = 5;
                }
                c.decoder_hidden = c.encoder_state(); // dot-like scores need the query and keys of one size
                write(dir, std::string(attention::name(score)) + "-" + std::string(models::name(style)) + "-" + encoder,
                      c, source, target);
            }
        }
    }
    // The fixed-vector baseline (GRU encoders only).
    for (bool bidirectional : {true, false}) {
        models::ModelConfig c = small(ScoreKind::none, AttentionStyle::bahdanau, words, characters);
        c.bidirectional = bidirectional;
        c.decoder_hidden = 3;
        write(dir, std::string("none-") + (bidirectional ? "bigru" : "gru"), c, words, characters);
    }
    // Location-aware attention on a dates-like task (characters to characters, longer sources) with
    // a wide filter and a Luong one with a single filter.
    {
        models::ModelConfig c = small(ScoreKind::location, AttentionStyle::bahdanau, characters, characters);
        c.location_filters = 3;
        c.location_width = 7;
        c.decoder_hidden = 5;
        c.max_source_len = 24;
        c.max_target_len = 10;
        write(dir, "location-dates", c, characters, characters);
        c.style = AttentionStyle::luong;
        c.location_filters = 1;
        c.location_width = 1;
        write(dir, "location-dates-luong", c, characters, characters);
    }
    // Audio models (frames of 24 bands, the speech task's characters): 0, 1 and 2 time reductions,
    // additive and location-aware attention.
    const io::Vocabulary none_source = io::Vocabulary::build({}, io::Tokenizer::characters);
    const io::Vocabulary letters = io::Vocabulary::build({{"a", "b", "c", " "}}, io::Tokenizer::characters);
    for (int reductions : {0, 1, 2}) {
        for (ScoreKind score : {ScoreKind::additive, ScoreKind::location, ScoreKind::dot}) {
            models::ModelConfig c = small(score, AttentionStyle::bahdanau, none_source, letters);
            c.encoder = models::EncoderKind::audio;
            c.input_dim = 24;
            c.reductions = reductions;
            c.decoder_hidden = score == ScoreKind::dot ? c.encoder_state() : 3;
            c.max_source_len = 480;
            c.max_target_len = 8;
            write(dir, "audio-r" + std::to_string(reductions) + "-" + std::string(attention::name(score)), c,
                  none_source, letters);
        }
    }
    // Image models: 8 × 8 pixels (a 2 × 2 grid) and 4 × 4 (one cell).
    const io::Vocabulary none_words = io::Vocabulary::build({}, io::Tokenizer::words);
    const io::Vocabulary caption = io::Vocabulary::build({{"a", "red", "circle", "above"}}, io::Tokenizer::words);
    for (int side : {8, 4}) {
        for (ScoreKind score : {ScoreKind::additive, ScoreKind::location}) {
            models::ModelConfig c = small(score, AttentionStyle::luong, none_words, caption);
            c.encoder = models::EncoderKind::conv;
            c.image_size = side;
            c.conv_channels = 2;
            c.decoder_hidden = 3;
            c.max_source_len = (side / 4) * (side / 4);
            write(dir, "image-" + std::to_string(side) + "-" + std::string(attention::name(score)), c, none_words,
                  caption);
        }
    }
    std::printf("%d tiny checkpoints in %s\n", written, dir);
    return 0;
}
