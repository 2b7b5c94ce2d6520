#include "train/text_task.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "tasks/pairs.hpp"

#include <stdexcept>
#include <string>

namespace apg::train {

EncodedPairs encode_examples(const std::vector<tasks::Example> &examples, const io::Vocabulary &source_vocab,
                             const io::Vocabulary &target_vocab) {
    EncodedPairs pairs;
    pairs.sources.reserve(examples.size());
    pairs.targets.reserve(examples.size());
    for (const auto &example : examples) {
        pairs.sources.push_back(source_vocab.encode(example.source));
        pairs.targets.push_back(target_vocab.encode(example.target));
    }
    return pairs;
}

PreparedTask prepare_task(std::string_view name, std::uint64_t seed) {
    PreparedTask p{tasks::make_task(name, seed), {}, {}, {}, {}};
    p.source_vocab = tasks::source_vocabulary(p.data);
    p.target_vocab = tasks::target_vocabulary(p.data);
    p.train = encode_examples(p.data.train, p.source_vocab, p.target_vocab);
    p.heldout = encode_examples(p.data.heldout, p.source_vocab, p.target_vocab);
    return p;
}

namespace {

DataShape shape_of(const tasks::TaskData &data, const io::Vocabulary &source, const io::Vocabulary &target) {
    return {source.size(), target.size(), static_cast<int>(data.max_source_len), static_cast<int>(data.max_target_len)};
}

models::ModelConfig text_config(std::string_view task, const DataShape &shape, attention::ScoreKind score,
                                models::AttentionStyle style, models::EncoderKind encoder) {
    models::ModelConfig c;
    c.task = std::string(task);
    c.score = score;
    c.style = style;
    c.source_vocab = shape.source_vocab;
    c.target_vocab = shape.target_vocab;
    // The benchmark model (tests/bench/bench_train.cpp): BiGRU 2 × 64, decoder GRU 128 (= 2 · 64, so every score
    // function fits), additive attention 64, embeddings 32.
    c.embedding = 32;
    c.encoder_hidden = 64;
    c.bidirectional = true;
    c.decoder_hidden = 128;
    c.attention_dim = 64;
    if (encoder == models::EncoderKind::transformer) {
        // The shipped Transformer-encoder model: 2 layers × 4 heads of 16 dimensions; the model size 64
        // is both embeddings and the encoder state (half the BiGRU's 128).
        c.encoder = encoder;
        c.embedding = 64;
        c.heads = 4;
        c.layers = 2;
        c.ff_hidden = 128;
        if (attention::same_size_query_and_keys(score))
            c.decoder_hidden = c.embedding; // the query must have the keys' size
    }
    c.max_source_len = shape.max_source_len;
    c.max_target_len = shape.max_target_len;
    c.validate();
    return c;
}

// The alignment apg decode prints: one row per output token, one column per source token, each
// cell a display width (CJK counts two).
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

// What the generated tasks and own pairs share: tokens in, read by either text encoder.
class TextTask : public Task {
  public:
    std::vector<models::EncoderKind> encoders() const override {
        return {models::EncoderKind::gru, models::EncoderKind::transformer};
    }

    models::ModelConfig config(attention::ScoreKind score, models::AttentionStyle style, models::EncoderKind encoder,
                               const DataShape &shape) const override {
        return text_config(name(), shape, score, style, encoder);
    }

    void size(models::ModelConfig &c, int embed, int hidden) const override {
        if (c.encoder == models::EncoderKind::gru) {
            c.embedding = embed;
            c.encoder_hidden = hidden;
            c.decoder_hidden = 2 * hidden; // = the encoder state, so every score function fits
            c.attention_dim = hidden;
            return;
        }
        if (embed % c.heads != 0)
            throw InputError(ErrorCode::bad_argument,
                             "embed: the transformer's model size must be a multiple of its " +
                                 std::to_string(c.heads) + " heads, got " + std::to_string(embed),
                             {{"name", std::string("embed")},
                              {"min", std::int64_t{c.heads}},
                              {"limit", static_cast<std::int64_t>(limits::max_train_dim)}});
        // text_config gives dot, scaled dot and cosine a decoder state of the keys' size.
        if (c.decoder_hidden == c.embedding) c.decoder_hidden = embed;
        c.embedding = embed;
        c.ff_hidden = hidden;
    }

    Probe probe(const std::string &input, const Dataset &data, const models::ModelConfig &config) const override {
        std::vector<int> ids = data.source_vocab.encode(input);
        if (static_cast<int>(ids.size()) > config.max_source_len)
            throw InputError(ErrorCode::too_long,
                             "the probe has " + std::to_string(ids.size()) + " tokens, the model takes at most " +
                                 std::to_string(config.max_source_len),
                             {{"length", static_cast<std::int64_t>(ids.size())},
                              {"limit", static_cast<std::int64_t>(config.max_source_len)}});
        return {[ids = std::move(ids)](const models::Seq2Seq &network) { return network.encode(ids); },
                data.source_vocab.tokenize(input)};
    }

    std::string summary(const Dataset &data, const models::ModelConfig &config) const override {
        return printed("task %s: %zu train / %zu held-out pairs, vocabularies %d / %d, max lengths %d / %d",
                       std::string(name()).c_str(), data.train.size(), data.heldout.size(), config.source_vocab,
                       config.target_vocab, config.max_source_len, config.max_target_len);
    }

    DecodeReport decode(const io::Model &model, const DecodeRequest &request) const override {
        const io::Translation t = model.translate(request.input);
        DecodeReport r;
        r.text = t.output_text + "\n";
        if (!t.ended) r.text += printed("(no end token within %d steps)\n", model.config().max_target_len + 1);
        if (model.config().score == attention::ScoreKind::none) {
            r.text += "\nno attention: the decoder read one fixed context (the encoder's final states) at every step\n";
            return r;
        }
        const int w = 6; // a column: up to 5 display cells of the token, then a space
        r.text += "\nattention weights (%), rows = output, columns = source\n" + cell("", 8);
        for (const auto &s : t.source_tokens) r.text += cell(s == " " ? "_" : s, w - 1) + " ";
        r.text += "\n";
        for (Eigen::Index i = 0; i < t.weights.rows(); ++i) {
            const std::string out = i < static_cast<Eigen::Index>(t.output_tokens.size())
                                        ? t.output_tokens[static_cast<std::size_t>(i)]
                                        : std::string("</s>");
            r.text += cell(out, 8);
            for (Eigen::Index j = 0; j < t.weights.cols(); ++j) {
                const int pct = static_cast<int>(100.0f * t.weights(i, j) + 0.5f);
                r.text += cell(pct == 0 ? "." : std::to_string(pct), w);
            }
            r.text += "\n";
        }
        return r;
    }

    CommandLine command_line() const override {
        std::string names;
        for (const tasks::Generator &g : tasks::generators()) names += (names.empty() ? "" : "|") + std::string(g.name);
        CommandLine c;
        c.train_usage =
            "  apg train --task " + names +
            "\n"
            "            --score dot|scaled_dot|general|additive|cosine|scaled_cosine|location|none (none: no "
            "attention)\n"
            "            [--location-filters N] [--location-width N (odd)] (location; default 8, 7)\n"
            "            --style bahdanau|luong --seed N --out FILE [--encoder gru|transformer]\n"
            "            [--decoder gru|transformer (transformer: score and style default to scaled_dot, luong)]\n"
            "            [--activation relu|gelu (transformer)]\n"
            "            [--steps N] [--batch N] [--lr X] [--eval-every N] [--quiet]\n";
        c.decode_usage = "  apg decode FILE \"text\"           output and alignment matrix\n";
        return c;
    }

  protected:
    // The data as the trainer eats them, the held-out pairs scored by exact match.
    static std::unique_ptr<Dataset> encoded(tasks::TaskData data, io::Vocabulary source, io::Vocabulary target) {
        auto d = std::make_unique<Dataset>();
        d->shape = shape_of(data, source, target);
        d->train = encode_examples(data.train, source, target);
        d->heldout = encode_examples(data.heldout, source, target);
        d->source_vocab = std::move(source);
        d->target_vocab = std::move(target);
        return d;
    }
};

// dates, zh and reverse: the data drawn by src/tasks from the seed.
class GeneratedTask final : public TextTask {
  public:
    GeneratedTask(const tasks::Generator &generator, int steps) : generator_(generator), steps_(steps) {}

    std::string_view name() const override { return generator_.name; }
    std::pair<io::Tokenizer, io::Tokenizer> tokenizers() const override {
        return {generator_.tokenizer, generator_.tokenizer};
    }
    std::string default_probe() const override { return std::string(generator_.probe); }

    TrainOptions options(models::EncoderKind encoder) const override {
        // The transformer encoder starts from nothing the GRU's recurrence gives for free (order,
        // neighbours), so it needs more steps: dates reached 99.5% of a 200-pair check by step
        // ~1,700, zh by ~2,000 (seed 1); 3,000 leaves room.
        return base_options(encoder == models::EncoderKind::transformer ? 3000 : steps_);
    }

    std::unique_ptr<Dataset> prepare(const DataRequest &request) const override {
        tasks::TaskData data = tasks::make_task(
            name(), request.seed, request.train_count ? request.train_count : tasks::default_train_count,
            request.heldout_count ? request.heldout_count : tasks::default_heldout_count);
        io::Vocabulary source = tasks::source_vocabulary(data), target = tasks::target_vocabulary(data);
        auto d = encoded(std::move(data), std::move(source), std::move(target));
        d->probe = default_probe();
        return d;
    }

    std::unique_ptr<Dataset> heldout(const io::Model &model) const override {
        // The model's task, not necessarily this one: a model of no generated task is refused
        // by make_task, naming the tasks it knows.
        const auto seed = model.training().value("data_seed", std::uint64_t{1});
        const tasks::TaskData data = tasks::make_task(model.config().task, seed);
        auto d = std::make_unique<Dataset>();
        d->heldout = encode_examples(data.heldout, model.source_vocab(), model.target_vocab());
        return d;
    }

  private:
    const tasks::Generator &generator_;
    int steps_;
};

// A person's source<TAB>target lines (tasks/pairs.hpp).
class PairsTask final : public TextTask {
  public:
    std::string_view name() const override { return "pairs"; }
    std::pair<io::Tokenizer, io::Tokenizer> tokenizers() const override {
        return {io::Tokenizer::words, io::Tokenizer::words};
    }
    std::string default_probe() const override { return ""; }

    // The dates recipe's options, for longer: own data are often harder.
    TrainOptions options(models::EncoderKind encoder) const override {
        return base_options(encoder == models::EncoderKind::gru ? 1000 : 3000);
    }

    std::unique_ptr<Dataset> prepare(const DataRequest &request) const override {
        tasks::PairsData p = tasks::parse_pairs(request.pairs, request.tokenization, request.seed);
        io::Vocabulary source = tasks::source_vocabulary(p.data), target = tasks::target_vocabulary(p.data);
        std::string first =
            p.data.heldout.empty() ? p.data.train.front().source_text : p.data.heldout.front().source_text;
        auto d = encoded(std::move(p.data), std::move(source), std::move(target));
        d->probe = std::move(first);
        d->command = "trained on own pairs (" + std::to_string(p.count) + " pairs, " + io::tokenizer_name(p.tokenizer) +
                     " tokens)";
        d->record["tokenization"] = io::tokenizer_name(p.tokenizer);
        return d;
    }

    std::unique_ptr<Dataset> heldout(const io::Model &) const override {
        throw std::invalid_argument("own pairs: the held-out pairs were the person's and are not in the checkpoint");
    }
};

// The recipe's steps: chosen from held-out curves of the additive Bahdanau model (dates ≥ 99% by
// step 300, zh by 500, reverse by 750), with room for the slower score functions.
int recipe_steps(std::string_view task) {
    if (task == "dates") return 500;
    if (task == "zh") return 800;
    if (task == "reverse") return 1000;
    throw std::invalid_argument("no recipe for task \"" + std::string(task) + "\" (valid: dates, zh, reverse)");
}

} // namespace

models::ModelConfig recipe_config(const PreparedTask &task, attention::ScoreKind score, models::AttentionStyle style,
                                  models::EncoderKind encoder) {
    return text_config(task.data.name, shape_of(task.data, task.source_vocab, task.target_vocab), score, style,
                       encoder);
}

void transformer_decoder_recipe(models::ModelConfig &c, int embedding, int ff_hidden) {
    c.decoder = models::DecoderKind::transformer;
    c.embedding = embedding;
    c.heads = 4;
    c.layers = 2;
    c.ff_hidden = ff_hidden;
}

TrainOptions recipe_options(std::string_view task, models::EncoderKind encoder, models::DecoderKind decoder) {
    TrainOptions o = text_task(task).options(encoder);
    if (decoder == models::DecoderKind::transformer) o.steps = std::max(o.steps, transformer_decoder_steps);
    return o;
}

const Task &text_task(std::string_view name) {
    static const std::vector<GeneratedTask> all = [] {
        std::vector<GeneratedTask> out;
        for (const tasks::Generator &g : tasks::generators()) out.emplace_back(g, recipe_steps(g.name));
        return out;
    }();
    for (const GeneratedTask &t : all)
        if (t.name() == name) return t;
    throw std::invalid_argument("no recipe for task \"" + std::string(name) + "\" (valid: dates, zh, reverse)");
}

const Task &pairs_task() {
    static const PairsTask task;
    return task;
}

} // namespace apg::train
