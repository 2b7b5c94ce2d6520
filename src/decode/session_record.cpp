// A decoding step as a named trace record (declared in session.hpp), for the exports. Compiled for
// size in the wasm build: the page's step records are packed by the bindings instead.
#include "decode/session.hpp"

namespace apg::decode {

std::string_view name(Choice choice) {
    switch (choice) {
    case Choice::greedy:
        return "greedy";
    case Choice::forced:
        return "forced";
    case Choice::beam:
        return "beam";
    }
    return "greedy";
}

trace::StepRecord to_record(const models::DecoderStep &step, int index) {
    trace::StepRecord r;
    r.kind = "decoder";
    r.index = index;
    r.set("prev_state", trace::to_tensor(step.prev_state));
    r.set("query", trace::to_tensor(step.query));
    r.set("scores", trace::to_tensor(step.attention.score.scores));
    if (step.attention.score.hidden.size() > 0) r.set("hidden", trace::to_tensor(step.attention.score.hidden));
    r.set("weights", trace::to_tensor(step.attention.weights));
    r.set("context", trace::to_tensor(step.attention.context));
    r.set("state", trace::to_tensor(step.state));
    if (step.attentional.size() > 0) r.set("attentional", trace::to_tensor(step.attentional));
    r.set("logits", trace::to_tensor(step.logits));
    r.set("probs", trace::to_tensor(step.probs));
    r.fields["prev_token_id"] = step.prev_token;
    return r;
}

trace::StepRecord to_record(const SessionStep &step, int index) {
    trace::StepRecord r = to_record(step.step, index);
    r.fields["token_id"] = step.token;
    r.fields["choice"] = std::string(name(step.choice));
    r.fields["log_prob"] = step.log_prob;
    r.fields["top_ids"] = step.top_ids;
    r.fields["top_probs"] = step.top_probs;
    r.set("exps", trace::to_tensor(step.softmax.exps));
    r.fields["max_score"] = step.softmax.max_score;
    r.fields["exp_sum"] = step.softmax.exp_sum;
    r.fields["entropy"] = step.softmax.entropy;
    r.fields["max_entropy"] = step.softmax.max_entropy;
    return r;
}

} // namespace apg::decode
