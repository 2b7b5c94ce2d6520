// The memory of a decoding and of its exports, added up from the model's config and the input
// before anything is allocated (core/budget.hpp), so a file whose sizes are each within their
// limits but whose products are not (an additive hidden of steps × n × attention_dim, a
// transformer's layers × heads × n² records, steps × target tokens of probabilities) is refused
// with limit_exceeded naming the product, instead of exhausting the heap.
//
// The counts follow what the structures hold (models/decoder.hpp's DecoderStep, session.hpp's
// SessionStep and BeamNode, models/transformer_encoder.hpp's layer cache,
// models/transformer_decoder.hpp's TransformerDecoderStep and key/value cache, the trace records of
// record_schema.hpp and transformer_trace.hpp), each rounded up; tests/js/memory-*.test.mjs
// decode at the budget in wasm and hold the heap to limits::max_heap_bytes.
#pragma once

#include "core/budget.hpp"
#include "decode/session.hpp"
#include "models/config.hpp"

#include <cstdint>
#include <string_view>

namespace apg::decode {

// A decoding of `steps` steps over n source positions that keeps `top_k` tokens per step, and its
// encoding (a transformer encoder's per-layer caches included): what it may allocate, and the
// check of it (throws InputError(limit_exceeded)).
// keep_qkv: a Transformer decoder's steps keep every head's queries, keys and values.
core::MemoryBudget session_memory(const models::ModelConfig &config, std::int64_t n, int steps, int top_k,
                                  const char *who, bool keep_qkv = false);
void check_session_memory(const models::ModelConfig &config, std::int64_t n, int steps, int top_k, const char *who,
                          bool keep_qkv = false);

// checked_max_steps (session.hpp), then check_session_memory for a source of n positions: the
// steps a session may take. What the sessions' constructors call before they encode.
int checked_session_steps(const models::Seq2Seq &model, const SessionOptions &options, std::int64_t n);

// A beam search of `width` hypotheses, at most `steps` deep, over an encoding of n positions.
void check_beam_memory(const models::ModelConfig &config, std::int64_t n, int steps, int width);

// The exports of a session: its trace records as JSON (every number a JSON value, then its text),
// as .npy files (the records, stacked, then written), or a transformer encoder's records alone
// (selfAttention()).
enum class Export { json, npy, self_attention };
// `steps`: the steps the session has taken, each with `top_k` tokens (none for Export::self_attention).
void check_export_memory(const models::ModelConfig &config, std::int64_t n, std::int64_t steps, int top_k, Export kind,
                         const char *who, bool keep_qkv = false);

// The parts, for the training run's budget (an evaluation decodes) and the tests.
void add_encoding(core::MemoryBudget &budget, const models::ModelConfig &config, double n);
// per_float: the bytes each kept number takes (a float; more for an export's copies of it);
// steps_name: what the message calls the steps; fed: the most positions a Transformer decoder's
// step attends to itself (-1: as many as the steps); keep_qkv: its steps keep each head's queries,
// keys and values.
void add_steps(core::MemoryBudget &budget, const models::ModelConfig &config, double n, double steps, int top_k,
               double per_float = sizeof(float), std::string_view steps_name = "steps", double fed = -1,
               bool keep_qkv = false);

} // namespace apg::decode
