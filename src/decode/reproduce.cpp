// Compiled for size in the wasm build (it runs once per click): string building, no model math.
#include "decode/reproduce.hpp"

#include "core/error.hpp"
#include "models/config.hpp"
#include "models/transformer_encoder.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>

namespace apg::decode {

namespace {

using attention::ScoreKind;

// A float32 as Python reads it back exactly; −∞ (a masked self-attention score) as NumPy's.
std::string number(float x) {
    if (std::isnan(x)) return "np.nan";
    if (std::isinf(x)) return x > 0 ? "np.inf" : "-np.inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(x));
    return text;
}

// A Python string literal of UTF-8 text (a token may be a quote, a backslash or Chinese).
std::string python_string(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned char>(c));
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// Text for a comment line: no line breaks inside it.
std::string one_line(std::string_view text) {
    std::string out(text);
    for (char &c : out)
        if (c == '\n' || c == '\r') c = ' ';
    return out;
}

class Script {
  public:
    // One line from its parts, appended in place: no temporary strings (their code is most of
    // what this file would add to the page's .wasm).
    void line(std::initializer_list<std::string_view> parts = {}) {
        for (std::string_view part : parts) text_ += part;
        text_ += '\n';
    }
    void line(std::string_view text) { line({text}); }
    // name = np.array([...]) of `count` floats, one row of `cols` per line when cols > 0.
    void array(std::string_view name, const float *data, Eigen::Index rows, Eigen::Index cols, std::string_view note) {
        if (!note.empty()) line({"# ", note});
        text_ += name;
        text_ += " = np.array([";
        if (cols == 0) {
            for (Eigen::Index i = 0; i < rows; ++i) {
                if (i) text_ += ", ";
                text_ += number(data[i]);
            }
        } else {
            for (Eigen::Index r = 0; r < rows; ++r) {
                text_ += "\n    [";
                for (Eigen::Index c = 0; c < cols; ++c) {
                    if (c) text_ += ", ";
                    text_ += number(data[r * cols + c]);
                }
                text_ += "],";
            }
            text_ += "\n";
        }
        text_ += "])\n";
    }
    void vector(std::string_view name, const Vec &v, std::string_view note) {
        array(name, v.data(), v.size(), 0, note);
    }
    void matrix(std::string_view name, const Mat &m, std::string_view note) {
        array(name, m.data(), m.rows(), m.cols(), note);
    }
    void labels(const std::vector<std::string> &source, Eigen::Index n) {
        text_ += "source = [";
        for (Eigen::Index j = 0; j < n; ++j) {
            const auto at = static_cast<std::size_t>(j);
            if (j) text_ += ", ";
            text_ += python_string(at < source.size() ? source[at] : "h_" + std::to_string(j + 1));
        }
        text_ += "]\n";
    }
    std::string take() { return std::move(text_); }

  private:
    std::string text_;
};

// The part every script shares after its stage 1: the softmax over the unmasked positions at τ,
// the context, the table of the engine's numbers beside NumPy's and the verdict.
void compare_and_verdict(Script &py, std::string_view values) {
    py.line("    z = np.where(attend, e / tau, -np.inf)  # masked positions take no weight");
    py.line("    alpha = np.exp(z - z.max()) / np.exp(z - z.max()).sum()  # stage 2 (the max cancels; exp cannot "
            "overflow)");
    py.line("    used = alpha if pinned is None else pinned");
    py.line({"    c = used @ ", values, "  # stage 3: c_i = sum_j alpha_ij ", values == "H" ? "h_j" : "v_j"});
    py.line();
    py.line(
        "    print(f\"{'j':>3}  {'source':<12}{'e page':>14}{'e numpy':>14}{'alpha page':>13}{'alpha numpy':>13}\")");
    py.line("    for j, name in enumerate(source):");
    py.line("        print(f\"{j:>3}  "
            "{name!r:<12}{page_e[j]:>14.7g}{e[j]:>14.7g}{page_alpha[j]:>13.7f}{alpha[j]:>13.7f}\")");
    py.line("    # a score is compared relative to its size above 1: a float32 near 50 is exact to 4e-6 only");
    py.line("    size = np.maximum(1, np.abs(np.where(attend, page_e, 0)))");
    py.line("    worst = {");
    py.line("        \"|e page - e numpy| / max(1, |e|)\": np.abs(np.where(attend, e - page_e, 0) / size).max(),");
    py.line("        \"|alpha page - alpha numpy|\": np.abs(alpha - page_alpha).max(),");
    py.line("        \"|c page - c numpy|\": np.abs(c - page_c).max(),");
    py.line("    }");
    py.line("    for name, difference in worst.items():");
    py.line("        print(f\"max {name} = {difference:.2e}\")");
    py.line("    if max(worst.values()) > TOLERANCE:");
    py.line("        print(f\"the page and NumPy DISAGREE by more than {TOLERANCE}\")");
    py.line("        sys.exit(1)");
    py.line("    print(f\"the page and NumPy agree within {TOLERANCE}\")");
    py.line();
    py.line();
}

void page_numbers(Script &py, const Vec &scores, const Vec &weights, const Vec &context,
                  std::string_view context_note) {
    py.line();
    py.line("# What the page showed for this step (the engine's float32 numbers).");
    py.vector("page_e", scores, "stage 1, e_ij");
    py.vector("page_alpha", weights, "stage 2, alpha_ij");
    py.vector("page_c", context, context_note);
}

void ending(Script &py) {
    py.line();
    py.line("if __name__ == \"__main__\":");
    py.line("    main()");
}

// What the score function is, in the article's notation, and its body in NumPy over the query s
// and the keys H (rows h_j).
struct ScoreText {
    std::string_view formula;
    std::vector<std::string_view> body;
};

ScoreText score_text(ScoreKind kind) {
    switch (kind) {
    case ScoreKind::dot:
        return {"e_ij = s . h_j", {"return H @ s"}};
    case ScoreKind::scaled_dot:
        return {"e_ij = s . h_j / sqrt(d), d the size of h_j", {"return H @ s / np.sqrt(H.shape[1])"}};
    case ScoreKind::general:
        return {"e_ij = s^T W h_j", {"return H @ (W.T @ s)"}};
    case ScoreKind::additive:
        return {"e_ij = v . tanh(W_q s + W_k h_j)", {"return np.tanh(W_q @ s + H @ W_k.T) @ v"}};
    case ScoreKind::cosine:
        return {"e_ij = s . h_j / (|s| |h_j|)",
                {"norms = np.maximum(np.linalg.norm(H, axis=1), EPS) * max(np.linalg.norm(s), EPS)",
                 "return H @ s / norms"}};
    case ScoreKind::scaled_cosine:
        return {"e_ij = g s . h_j / (|s| |h_j|), g learned",
                {"norms = np.maximum(np.linalg.norm(H, axis=1), EPS) * max(np.linalg.norm(s), EPS)",
                 "return g * (H @ s) / norms"}};
    case ScoreKind::location:
        return {"e_ij = v . tanh(W_q s + W_k h_j + W_f f_j + b), f = F * alpha_(i-1)",
                {"r = F.shape[1]  # each filter's width (odd), centred on j",
                 "a = np.pad(alpha_prev, (r - 1) // 2)  # zeros beyond both ends",
                 "f = np.array([[F[k] @ a[j : j + r] for k in range(len(F))] for j in range(len(H))])",
                 "return np.tanh(W_q @ s + H @ W_k.T + f @ W_f.T + b) @ v"}};
    case ScoreKind::none:
        break;
    }
    return {};
}

void score_parameters(Script &py, const attention::ScoreParams &p, const SessionStep &step) {
    switch (p.kind) {
    case ScoreKind::general:
        py.matrix("W", p.w, "the score's W (size of s x size of h_j)");
        break;
    case ScoreKind::location:
        py.matrix("F", p.filters, "location: the filters F (one per row) convolved over alpha_(i-1)");
        py.matrix("W_f", p.w_f, "location: W_f, b");
        py.vector("b", p.b, "");
        py.vector("alpha_prev", step.step.attention.score.previous, "alpha_(i-1): the weights of the step before");
        [[fallthrough]];
    case ScoreKind::additive:
        py.matrix("W_q", p.w_q, "the score's W_q, W_k (hidden size x input size) and v");
        py.matrix("W_k", p.w_k, "");
        py.vector("v", p.v, "");
        break;
    case ScoreKind::cosine:
        py.line({"EPS = ", number(attention::cosine_norm_epsilon), "  # a zero norm counts as EPS (no division by 0)"});
        break;
    case ScoreKind::scaled_cosine:
        py.line({"EPS = ", number(attention::cosine_norm_epsilon), "  # a zero norm counts as EPS (no division by 0)"});
        py.line({"g = ", number(p.scale[0]), "  # the learned scale"});
        break;
    default:
        break;
    }
}

// What follows every script's header comment: its imports and the largest difference it accepts.
void imports(Script &py) { py.line("import sys\n\nimport numpy as np\n\nTOLERANCE = 1e-5\n\n"); }

void header(Script &py, const ReproduceAbout &about) {
    py.line("#!/usr/bin/env python3");
    py.line("# Reproduce one attention step of the Attention Playground with NumPy.");
    py.line({"# Model ", one_line(about.model), ", input ", python_string(one_line(about.input)), "."});
}

void bad_argument(const std::string &message, std::string_view name) {
    throw InputError(ErrorCode::bad_argument, "reproduce: " + message, {{"name", std::string(name)}});
}

} // namespace

std::string reproduce_step(const models::Seq2Seq &model, const Mat &keys, const SessionStep &step, int index,
                           const ReproduceAbout &about) {
    const auto &config = model.config();
    if (config.decoder != models::DecoderKind::gru)
        bad_argument("a Transformer decoder's step has one alignment per head, not one to reproduce", "decoder");
    if (config.score == ScoreKind::none || step.step.attention.weights.size() == 0)
        bad_argument("this model has no attention (its context is the fixed vector)", "score");
    const bool bahdanau = config.style == models::AttentionStyle::bahdanau;
    const ScoreText score = score_text(config.score);
    const auto n = keys.rows();

    Script py;
    header(py, about);
    const std::string took =
        about.output_token.empty() ? std::string() : " (it took " + python_string(about.output_token) + ")";
    py.line({"# Step i = ", std::to_string(index + 1), " of the output", took, ", score function ",
             attention::name(config.score), "."});
    py.line(bahdanau ? "# Bahdanau style: the query s is s_(i-1), the decoder state before the step."
                     : "# Luong style: the query s is s_i, the decoder state after the step.");
    py.line("#");
    py.line({"#   e_ij     = score(s, h_j)                 stage 1, ", score.formula});
    py.line("#   alpha_ij = exp(e_ij) / sum_k exp(e_ik)   stage 2, each e_ij divided by tau first");
    py.line("#   c_i      = sum_j alpha_ij h_j            stage 3, h_j the encoder state at source j");
    py.line("#");
    std::string masked;
    for (Eigen::Index j = 0; j < step.masked.size(); ++j)
        if (step.masked[j] != 0) masked += " j = " + std::to_string(j);
    py.line({"# tau = ", number(step.temperature),
             masked.empty() ? "; no source position masked" : "; masked on the page (they take no weight):", masked,
             "."});
    if (step.pin != Pin::none)
        py.line("# The page pinned this step's weights (a what-if): alpha is the model's softmax, the context "
                "uses `pinned`.");
    py.line("# Source positions j count from 0, as Python does. Every number is the page's, at the end of this");
    py.line("# file. Run: python3 <this file>");
    imports(py);
    py.line("def score(s, H):");
    for (std::string_view body : score.body) py.line({"    ", body});
    py.line();
    py.line();
    py.line("def main():");
    py.line("    e = score(s, H)  # stage 1: one score per source position j");
    compare_and_verdict(py, "H");
    py.line("# This step's inputs: the query s, the encoder states H (row j = h_j) and the score's parameters.");
    py.labels(about.source, n);
    py.vector("s", step.step.query, bahdanau ? "s_(i-1)" : "s_i");
    py.matrix("H", keys, "H: one row h_j per source position");
    score_parameters(py, model.parameters().decoder.attn, step);
    py.line({"tau = ", number(step.temperature)});
    if (step.masked.size() > 0) {
        Vec attend = 1.0f - step.masked.array();
        py.array("attend", attend.data(), n, 0, "1 = attended, 0 = masked");
        py.line("attend = attend > 0");
    } else {
        py.line("attend = np.ones(len(H), dtype=bool)  # nothing masked");
    }
    if (step.pin != Pin::none) {
        py.vector("pinned", step.step.attention.weights, "the weights the page pinned");
        const Vec model_weights = step.softmax.exps / step.softmax.exp_sum;
        page_numbers(py, step.step.attention.score.scores, model_weights, step.step.attention.context,
                     "stage 3, c_i (from the pinned weights)");
    } else {
        py.line("pinned = None");
        page_numbers(py, step.step.attention.score.scores, step.step.attention.weights, step.step.attention.context,
                     "stage 3, c_i");
    }
    ending(py);
    return py.take();
}

std::string reproduce_step(const DecodeSession &session, int index, const ReproduceAbout &about) {
    const auto &steps = session.steps();
    if (index < 0 || index >= static_cast<int>(steps.size()))
        bad_argument("step " + std::to_string(index) + " does not exist (the session has " +
                         std::to_string(steps.size()) + " steps)",
                     "step");
    return reproduce_step(session.model(), session.encoded().states, steps[static_cast<std::size_t>(index)], index,
                          about);
}

std::string reproduce_self_attention(const models::TransformerEncoderParams &params,
                                     const models::TransformerEncoderCache &cache, int layer, int head, int query,
                                     const ReproduceAbout &about) {
    const int layers = static_cast<int>(cache.layers.size());
    if (layer < 0 || layer >= layers)
        bad_argument("layer " + std::to_string(layer) + " does not exist (the encoder has " + std::to_string(layers) +
                         ")",
                     "layer");
    const auto &attn = cache.layers[static_cast<std::size_t>(layer)].attn;
    const int heads = static_cast<int>(attn.heads.size());
    if (head < 0 || head >= heads)
        bad_argument("head " + std::to_string(head) + " does not exist (the layer has " + std::to_string(heads) + ")",
                     "head");
    const Mat &x = layer == 0 ? cache.inputs : cache.layers[static_cast<std::size_t>(layer) - 1].output;
    const auto n = x.rows(), d = x.cols();
    if (query < 0 || query >= n)
        bad_argument("query " + std::to_string(query) + " does not exist (the input has " + std::to_string(n) +
                         " positions)",
                     "query");
    const auto &p = params.layers.at(static_cast<std::size_t>(layer)).attn;
    const auto &one = attn.heads[static_cast<std::size_t>(head)];
    const auto dk = one.query.cols();
    const auto first = head * dk; // this head's rows of W_q, W_k, W_v (out × in, row-major)
    const auto at = static_cast<std::size_t>(query);

    Script py;
    header(py, about);
    const std::string token = at < about.source.size() ? " (" + python_string(about.source[at]) + ")" : std::string();
    py.line({"# The Transformer encoder's self-attention: layer ", std::to_string(layer + 1), ", head ",
             std::to_string(head + 1), ", the query at position i = ", std::to_string(query), token, "."});
    py.line("#");
    py.line("#   q_i = W_q x_i + b_q,  k_j = W_k x_j + b_k,  v_j = W_v x_j + b_v   this head's projections");
    py.line("#   e_ij     = q_i . k_j / sqrt(d_k)          stage 1, the scaled dot product");
    py.line("#   alpha_ij = exp(e_ij) / sum_k exp(e_ik)    stage 2");
    py.line("#   c_i      = sum_j alpha_ij v_j             stage 3, this head's output");
    py.line("#");
    py.line("# x_j is the layer's input at position j (from 0, as Python counts). Every number is the page's,");
    py.line("# at the end of this file. Run: python3 <this file>");
    imports(py);
    py.line("def main():");
    py.line("    q = W_q @ X[i] + b_q");
    py.line("    K = X @ W_k.T + b_k  # row j = k_j");
    py.line("    V = X @ W_v.T + b_v  # row j = v_j");
    py.line("    e = K @ q / np.sqrt(len(q))  # stage 1");
    compare_and_verdict(py, "V");
    py.line("# This step's inputs: the layer's input X (row j = x_j) and this head's projections.");
    py.labels(about.source, n);
    py.line({"i = ", std::to_string(query)});
    py.matrix("X", x, "X: one row x_j per position");
    py.array("W_q", p.w_q.data() + first * d, dk, d, "W_q, b_q, W_k, b_k, W_v, b_v: this head's rows (d_k x d)");
    py.array("b_q", p.b_q.data() + first, dk, 0, "");
    py.array("W_k", p.w_k.data() + first * d, dk, d, "");
    py.array("b_k", p.b_k.data() + first, dk, 0, "");
    py.array("W_v", p.w_v.data() + first * d, dk, d, "");
    py.array("b_v", p.b_v.data() + first, dk, 0, "");
    py.line("tau = 1");
    Vec attend(n);
    for (Eigen::Index j = 0; j < n; ++j) attend[j] = cache.mask[static_cast<std::size_t>(j)] != 0 ? 1.0f : 0.0f;
    py.vector("attend", attend, "1 = a real token, 0 = padding");
    py.line("attend = attend > 0");
    py.line("pinned = None");
    py.line();
    py.line("# What the page showed for this row (the engine's float32 numbers).");
    py.array("page_e", one.scores.data() + query * n, n, 0, "stage 1, e_ij (-inf at padding)");
    py.array("page_alpha", one.weights.data() + query * n, n, 0, "stage 2, alpha_ij");
    py.array("page_c", one.output.data() + query * dk, dk, 0, "stage 3, c_i");
    ending(py);
    return py.take();
}

} // namespace apg::decode
