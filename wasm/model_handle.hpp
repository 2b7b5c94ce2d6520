// What JS holds for a Model (the embind class "Model" of model_bindings.cpp), outside an anonymous
// namespace so the trainer module's bindings can hand out a trained model as the same class.
#pragma once

#include "io/model.hpp"

#include <memory>

namespace apg::wasm {

struct ModelHandle {
    std::shared_ptr<const io::Model> model;
};

} // namespace apg::wasm
