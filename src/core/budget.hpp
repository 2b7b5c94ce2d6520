// The memory one piece of work (a decoding, an export, a training run) will allocate, added up from
// its sizes before anything is allocated, and refused past limits::max_work_bytes. Each part is a
// product of named sizes ("1024 steps × 512 source positions × 4096 attention_dim"), so the
// refusal names the product that is too large, not only the total. The products are counted in
// double: sizes of up to 2^31 multiply without overflow, and a total past the limit is refused
// whatever its rounding.
#pragma once

#include "core/error.hpp"
#include "core/limits.hpp"

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace apg::core {

// What one float of a tensor takes: every buffer the engine allocates is float32.
inline constexpr double float_bytes = sizeof(float);

// One size of a product: its value and what it counts ("steps", "attention_dim").
struct Size {
    double value;
    std::string_view name;
};

class MemoryBudget {
  public:
    // who: the work, as the message starts ("decode", "exportJson", "training run").
    explicit MemoryBudget(std::string who, std::int64_t limit = limits::max_work_bytes)
        : who_(std::move(who)), limit_(limit) {}

    // bytes_each × the product of the sizes: what `what` takes ("the additive score's hidden per step").
    void add(std::string_view what, double bytes_each, std::initializer_list<Size> sizes) {
        Part part{std::string(what), bytes_each, {}, bytes_each};
        for (const Size &s : sizes) {
            part.sizes.push_back({s.value, std::string(s.name)});
            part.bytes *= s.value;
        }
        total_ += part.bytes;
        parts_.push_back(std::move(part));
    }
    // A fixed number of bytes (a model's parameters, a file).
    void add_bytes(std::string_view what, double bytes) { add(what, bytes, {}); }

    double total() const { return total_; }
    std::int64_t limit() const { return limit_; }

    // Throws InputError(limit_exceeded) when the total passes the limit: the message names the
    // largest part's product, its size and the total; details "name" (the product, e.g. "steps ×
    // source positions × attention_dim"), "bytes" (the total) and "limit" (bytes).
    void check() const {
        if (total_ <= static_cast<double>(limit_)) return;
        const Part *largest = &parts_.front();
        for (const Part &p : parts_)
            if (p.bytes > largest->bytes) largest = &p;
        std::string product, named;
        for (const auto &[value, name] : largest->sizes) {
            product += (product.empty() ? "" : " × ") + whole(value) + " " + name;
            named += (named.empty() ? "" : " × ") + name;
        }
        if (named.empty()) named = largest->what;
        const std::string part = product.empty() ? largest->what + " (" + mib(largest->bytes) + ")"
                                                 : product + " (" + largest->what + ", " + mib(largest->bytes) + ")";
        throw InputError(ErrorCode::limit_exceeded,
                         who_ + ": " + part + " would need " + mib(total_) + " in all, more than the limit of " +
                             mib(static_cast<double>(limit_)) + " one piece of work may use",
                         {{"name", named}, {"bytes", total_}, {"limit", limit_}});
    }

  private:
    struct Part {
        std::string what;
        double bytes_each;
        std::vector<std::pair<double, std::string>> sizes;
        double bytes;
    };
    static std::string whole(double x) {
        char text[32];
        std::snprintf(text, sizeof text, "%.0f", x);
        return text;
    }
    static std::string mib(double bytes) {
        char text[48];
        if (bytes < 1024.0 * 1024.0)
            std::snprintf(text, sizeof text, "%.0f bytes", bytes);
        else
            std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024.0));
        return text;
    }

    std::string who_;
    std::int64_t limit_;
    double total_ = 0;
    std::vector<Part> parts_;
};

} // namespace apg::core
