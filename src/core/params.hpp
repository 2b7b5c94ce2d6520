// The one list of a module's parameter tensors. Every Params struct writes, once, a member
//     void list(core::ParamList out, <the sizes its config gives>)
// that names each of its tensors with the shape those sizes give it, and hands each nested
// module out.sub("its name"). What walks the parameters derives from that list:
//   views(): every tensor by module path with its shape (checkpoint save and load, the optimiser,
//            gradient checks), each checked against the shape its config wants;
//   zeros(): every tensor resized to its shape and set to 0 (gradient and moment accumulators,
//            the model a checkpoint is loaded into);
//   shapes(): every tensor's name and shape without allocating any (what the checkpoint loader
//            holds a file against before it allocates a model of the file's config).
// Hyperparameters a module keeps beside its tensors (heads, eps, the activation) go through
// setting(): set from the config by zeros(), checked against it by views().
#pragma once

#include "core/tensor.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apg::core {

// One parameter tensor viewed in place (valid while its owner lives unresized).
struct TensorRef {
    std::string name;                // module path, e.g. "encoder.layers.0.attn.w_q"
    std::vector<std::int64_t> shape; // row-major
    std::span<float> data;
};

class ParamList {
  public:
    enum class Mode { view, zero, shape };

    // Views (view mode) or name and shape with no data (shape mode) are appended to *out; unused in
    // zero mode. Names start with prefix.
    ParamList(Mode mode, std::vector<TensorRef> *out, std::string prefix = {})
        : mode_(mode), out_(out), prefix_(std::move(prefix)) {}

    bool zeroing() const { return mode_ == Mode::zero; }
    // The same list for a nested module: names under "<prefix>.<part>".
    ParamList sub(std::string_view part) const { return {mode_, out_, path(part)}; }

    // View mode throws std::logic_error naming the tensor when its shape is not the given one.
    void add(std::string_view name, Mat &m, Eigen::Index rows, Eigen::Index cols);
    void add(std::string_view name, Vec &v, Eigen::Index size);
    // A hyperparameter: zero mode sets it to `want`, view mode checks it equals `want`.
    void setting(std::string_view name, int &value, int want);
    void setting(std::string_view name, float &value, float want);
    template <class Enum> void setting(std::string_view name, Enum &value, Enum want) {
        int as_int = static_cast<int>(value);
        setting(name, as_int, static_cast<int>(want));
        value = static_cast<Enum>(as_int);
    }
    // A list of modules: zero mode resizes it to n, view mode checks it has n.
    template <class T> void count(std::string_view name, std::vector<T> &items, std::size_t n) {
        if (mode_ != Mode::view)
            items.resize(n);
        else if (items.size() != n)
            mismatch(name, std::to_string(items.size()) + " entries", std::to_string(n));
    }

  private:
    std::string path(std::string_view name) const;
    [[noreturn]] void mismatch(std::string_view name, const std::string &has, const std::string &want) const;

    Mode mode_;
    std::vector<TensorRef> *out_;
    std::string prefix_;
};

// Every tensor of params (params.list(out, sizes...)) in its fixed order, names under prefix.
template <class Params, class... Sizes>
std::vector<TensorRef> views(Params &params, std::string_view prefix, const Sizes &...sizes) {
    std::vector<TensorRef> out;
    params.list(ParamList(ParamList::Mode::view, &out, std::string(prefix)), sizes...);
    return out;
}

// Params of the shapes the sizes give, every tensor 0 (and every setting as the sizes say).
template <class Params, class... Sizes> Params zeros(const Sizes &...sizes) {
    Params params;
    params.list(ParamList(ParamList::Mode::zero, nullptr), sizes...);
    return params;
}

// Every tensor's name and shape for the sizes, in the same order as views(); nothing of those
// sizes is allocated.
template <class Params, class... Sizes> std::vector<TensorRef> shapes(const Sizes &...sizes) {
    Params params;
    std::vector<TensorRef> out;
    params.list(ParamList(ParamList::Mode::shape, &out), sizes...);
    return out;
}

} // namespace apg::core
