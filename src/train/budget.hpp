// The memory of a training run, added up from its model config, its options and its data's
// lengths before the model, the trainer or any batch is allocated (core/budget.hpp). Each field of
// a run is within its limit on its own (core/limits.hpp); this bounds their products: the
// parameters with their gradients, Adam's two moments and the copies a run keeps (7 × the
// parameters), a mini-batch's forward and backward buffers (longest target × batch × target
// vocabulary of probabilities and their gradients, × the source positions for the attention's
// per-step buffers, the encoder's caches), and an evaluation's decoding. Refused with
// limit_exceeded naming the product that is too large. The data itself is made before and is not
// counted: it does not grow with the run's sizes, and is bounded by a task's generator or by the
// limits of own pairs.
//
// The counts follow the structures the trainer fills (models/decoder.hpp's DecoderCache,
// models/seq2seq.hpp's TrainingWorkspace, train/trainer.hpp, train/optim.hpp), each rounded up;
// tests/js/memory-trainer.test.mjs trains a run at the budget in wasm and holds the heap to
// limits::max_heap_bytes.
#pragma once

#include "core/budget.hpp"
#include "models/config.hpp"
#include "train/trainer.hpp"

namespace apg::train {

// What the run may allocate, and the check of it: throws InputError(limit_exceeded) with details
// "name" (the product), "bytes" and "limit".
core::MemoryBudget run_memory(const models::ModelConfig &config, const TrainOptions &options,
                              const EncodedPairs &train);
void check_run_memory(const models::ModelConfig &config, const TrainOptions &options, const EncodedPairs &train);

} // namespace apg::train
