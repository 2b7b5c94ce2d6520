// Writes small checkpoints of every kind (5 score functions × 2 styles × BiGRU, one-way GRU and
// Transformer encoders) into the directory given, as seeds for fuzz_checkpoint: a few KB each
// instead of the shipped models' ~800 KB, so the fuzzer runs hundreds of times faster on them
// while reaching the same code.
#include "io/model.hpp"

#include <cstdio>
#include <fstream>
#include <string>

using namespace apg;

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_tiny_checkpoints DIR\n");
        return 2;
    }
    const io::Vocabulary words =
        io::Vocabulary::build({{"tom", "chase", "jerry", "cat", "汤姆"}}, io::Tokenizer::words);
    const io::Vocabulary characters =
        io::Vocabulary::build({{"1", "2", " ", "n", "o", "v", "-"}}, io::Tokenizer::characters);
    int written = 0;
    for (attention::ScoreKind score : attention::all_score_kinds) {
        for (models::AttentionStyle style : {models::AttentionStyle::bahdanau, models::AttentionStyle::luong}) {
            for (const char *encoder : {"bigru", "gru", "transformer"}) {
                const bool chars = (written % 2) == 1;
                const io::Vocabulary &source = chars ? characters : words, &target = chars ? words : characters;
                models::ModelConfig c;
                c.task = "tiny";
                c.score = score;
                c.style = style;
                c.source_vocab = source.size();
                c.target_vocab = target.size();
                c.embedding = 4;
                c.encoder_hidden = 2;
                c.bidirectional = std::string(encoder) == "bigru";
                if (std::string(encoder) == "transformer") {
                    c.encoder = models::EncoderKind::transformer;
                    c.heads = 2;
                    c.layers = 1;
                    c.ff_hidden = 5;
                }
                c.decoder_hidden = c.encoder_state(); // dot-like scores need the query and keys of one size
                c.attention_dim = 3;
                c.max_source_len = 12;
                c.max_target_len = 6;
                const io::Model model(models::Seq2Seq(c, 1 + written), source, target, {{"seed", written}});
                const auto bytes = model.save();
                const std::string path = std::string(argv[1]) + "/tiny-" + std::string(attention::name(score)) + "-" +
                                         std::string(models::name(style)) + "-" + encoder;
                std::ofstream(path, std::ios::binary)
                    .write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
                ++written;
            }
        }
    }
    std::printf("%d tiny checkpoints in %s\n", written, argv[1]);
    return 0;
}
