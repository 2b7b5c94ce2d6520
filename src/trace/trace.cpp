#include "trace/trace.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace apg::trace {

Tensor to_tensor(const Vec &v) {
    Tensor t = Tensor::from_shape({static_cast<std::size_t>(v.size())});
    std::copy(v.data(), v.data() + v.size(), t.data());
    return t;
}

Tensor to_tensor(const Mat &m) {
    Tensor t = Tensor::from_shape({static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols())});
    std::copy(m.data(), m.data() + m.size(), t.data()); // both row-major
    return t;
}

bool StepRecord::has(std::string_view name) const { return tensors.find(std::string(name)) != tensors.end(); }

const Tensor &StepRecord::get(std::string_view name) const {
    auto it = tensors.find(std::string(name));
    if (it != tensors.end()) return it->second;
    std::string present;
    for (const auto &[key, value] : tensors) present += (present.empty() ? "" : ", ") + key;
    throw std::out_of_range("trace: step " + std::to_string(index) + " has no buffer \"" + std::string(name) +
                            "\" (it has: " + present + ")");
}

static nlohmann::json tensor_json(const Tensor &t) {
    nlohmann::json data = nlohmann::json::array();
    for (float x : t) {
        // JSON has no NaN or infinity; null keeps the position so shapes still hold.
        if (std::isfinite(x))
            data.push_back(x);
        else
            data.push_back(nullptr);
    }
    return {{"shape", t.shape()}, {"data", std::move(data)}};
}

nlohmann::json to_json(const StepRecord &record) {
    nlohmann::json tensors = nlohmann::json::object();
    for (const auto &[name, t] : record.tensors) tensors[name] = tensor_json(t);
    return {{"kind", record.kind}, {"index", record.index}, {"fields", record.fields}, {"tensors", tensors}};
}

nlohmann::json Trace::to_json() const {
    nlohmann::json out_steps = nlohmann::json::array();
    for (const auto &step : steps) out_steps.push_back(trace::to_json(step));
    return {{"meta", meta}, {"steps", std::move(out_steps)}};
}

// NumPy's .npy format, version 1.0, written by hand: xtensor's writer goes through iostreams,
// which pulled ~100 KB of locale and stream code into the page's .wasm. Byte for byte what
// xt::dump_npy writes: magic, version, a little-endian u16 header length, the header dict padded
// with spaces (then '\n') so the data starts at a multiple of 64, then the floats, C order.
std::string npy_bytes(const std::vector<std::size_t> &shape, const float *data) {
    static_assert(std::endian::native == std::endian::little, "'<f4' below means little-endian floats");
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    std::size_t count = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        dict += (i ? ", " : "") + std::to_string(shape[i]);
        count *= shape[i];
    }
    dict += shape.size() == 1 ? ",), }" : "), }";
    constexpr std::size_t prefix = 6 + 2 + 2; // magic, version, header length
    const std::size_t padding = 64 - (prefix + dict.size() + 1) % 64;
    dict.append(padding, ' ');
    dict += '\n';
    if (dict.size() > 0xffff)
        throw std::invalid_argument("npy: a shape of " + std::to_string(shape.size()) +
                                    " dimensions does not fit a version 1.0 header");

    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(dict.size() & 0xff);
    out += static_cast<char>(dict.size() >> 8);
    out += dict;
    const std::size_t header = out.size();
    out.resize(header + count * sizeof(float));
    if (count) std::memcpy(out.data() + header, data, count * sizeof(float));
    return out;
}

static std::string npy_bytes(const Tensor &t) {
    return npy_bytes(std::vector<std::size_t>(t.shape().begin(), t.shape().end()), t.data());
}

std::map<std::string, std::string> Trace::to_npy() const {
    // name → the records that carry it, in order
    std::map<std::string, std::vector<const StepRecord *>> carriers;
    for (const auto &step : steps)
        for (const auto &[name, t] : step.tensors) carriers[name].push_back(&step);

    std::map<std::string, std::string> files;
    for (const auto &[name, records] : carriers) {
        const auto &first_shape = records.front()->get(name).shape();
        bool same = true;
        for (const auto *r : records) same = same && r->get(name).shape() == first_shape;
        if (same) {
            std::vector<std::size_t> shape{records.size()};
            shape.insert(shape.end(), first_shape.begin(), first_shape.end());
            Tensor stacked = Tensor::from_shape(shape);
            std::size_t per_step = records.front()->get(name).size();
            for (std::size_t i = 0; i < records.size(); ++i) {
                const Tensor &t = records[i]->get(name);
                std::copy(t.begin(), t.end(), stacked.data() + i * per_step);
            }
            files[name + ".npy"] = npy_bytes(stacked);
        } else {
            for (const auto *r : records)
                files[name + ".step" + std::to_string(r->index) + ".npy"] = npy_bytes(r->get(name));
        }
    }
    return files;
}

} // namespace apg::trace
