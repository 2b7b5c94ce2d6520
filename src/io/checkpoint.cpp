#include "io/checkpoint.hpp"

#include "core/error.hpp"
#include "core/quote.hpp"
#include "core/shape_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace apg::io {

namespace {

using json = nlohmann::json;

constexpr const char *metadata_key = "__metadata__";

// Out of line with plain arguments: each call site stays small (the wasm build has a size budget).
[[noreturn]] void fail(const std::string &message, const std::string &field = "header", std::int64_t limit = -1) {
    Details details{{"field", field}};
    if (limit >= 0) details.emplace_back("limit", limit);
    throw FileError(ErrorCode::bad_checkpoint, "checkpoint: " + message, std::move(details));
}

std::uint32_t float_bits(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

float bits_float(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

void append_u32_le(std::vector<std::uint8_t> &out, std::uint32_t value) {
    for (int byte = 0; byte < 4; ++byte) out.push_back(static_cast<std::uint8_t>(value >> (8 * byte)));
}

std::uint32_t read_u32_le(const std::uint8_t *bytes) {
    return static_cast<std::uint32_t>(bytes[0]) | static_cast<std::uint32_t>(bytes[1]) << 8 |
           static_cast<std::uint32_t>(bytes[2]) << 16 | static_cast<std::uint32_t>(bytes[3]) << 24;
}

std::uint64_t read_nonnegative(const json &value, const std::string &what, const std::string &field) {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_number_integer()) fail(what + " is negative (" + value.dump() + ")", field);
    fail(what + " must be a non-negative integer, got " + value.dump(), field);
}

struct Entry {
    std::string name;
    std::vector<std::int64_t> shape;
    std::uint64_t elements = 0, begin = 0, end = 0;
};

Entry read_entry(const std::string &name, const json &spec) {
    const std::string where = "tensor " + quote(name);
    if (name.empty()) fail("a tensor has an empty name");
    if (!spec.is_object()) fail(where + " must be an object with dtype, shape and data_offsets", name);
    for (const auto &[key, value] : spec.items())
        if (key != "dtype" && key != "shape" && key != "data_offsets")
            fail(where + " has an unexpected field " + quote(key), name);
    for (const char *field : {"dtype", "shape", "data_offsets"})
        if (!spec.contains(field)) fail(where + " has no field \"" + field + "\"", name);

    const json &dtype = spec.at("dtype");
    if (!dtype.is_string()) fail(where + " dtype must be a string, got " + dtype.dump(), name);
    if (dtype.get<std::string>() != "F32")
        fail(where + " has dtype " + dtype.dump() + "; only \"F32\" (float32) is supported", name);

    Entry entry{name, {}, 1, 0, 0};
    const json &shape = spec.at("shape");
    if (!shape.is_array()) fail(where + " shape must be an array of integers, got " + shape.dump(), name);
    // Every count stays below 2^62, so elements * 4 bytes cannot overflow 64 bits.
    constexpr std::uint64_t max_elements = std::uint64_t{1} << 60;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const std::uint64_t dim = read_nonnegative(shape[i], where + " shape[" + std::to_string(i) + "]", name);
        if (dim > max_elements || (dim != 0 && entry.elements > max_elements / dim))
            fail(where + " shape " + shape.dump() + " has too many elements", name);
        entry.elements *= dim;
        entry.shape.push_back(static_cast<std::int64_t>(dim));
    }

    const json &offsets = spec.at("data_offsets");
    if (!offsets.is_array() || offsets.size() != 2)
        fail(where + " data_offsets must be [begin, end], got " + offsets.dump(), name);
    entry.begin = read_nonnegative(offsets[0], where + " data_offsets[0]", name);
    entry.end = read_nonnegative(offsets[1], where + " data_offsets[1]", name);
    if (entry.end < entry.begin) fail(where + " data_offsets " + offsets.dump() + " end before they begin", name);
    if (entry.end - entry.begin != 4 * entry.elements)
        fail(where + " data_offsets " + offsets.dump() + " span " + std::to_string(entry.end - entry.begin) +
                 " bytes but shape " + shape.dump() + " of float32 needs " + std::to_string(4 * entry.elements),
             name);
    return entry;
}

} // namespace

std::vector<std::uint8_t> save_safetensors(const Checkpoint &checkpoint) {
    json header = json::object();
    std::uint64_t offset = 0;
    for (const auto &[name, tensor] : checkpoint.tensors) {
        if (name.empty() || name == metadata_key)
            throw std::invalid_argument("save_safetensors: tensor name \"" + name + "\" is not allowed");
        std::uint64_t elements = 1;
        for (auto dim : tensor.shape) {
            if (dim < 0)
                throw std::invalid_argument("save_safetensors: tensor \"" + name + "\" shape " +
                                            core::shape_text(tensor.shape) + " has a negative dim");
            elements *= static_cast<std::uint64_t>(dim);
        }
        if (elements != tensor.data.size())
            throw std::invalid_argument("save_safetensors: tensor \"" + name + "\" shape " +
                                        core::shape_text(tensor.shape) + " needs " + std::to_string(elements) +
                                        " values, has " + std::to_string(tensor.data.size()));
        for (std::size_t i = 0; i < tensor.data.size(); ++i)
            if (!std::isfinite(tensor.data[i]))
                throw std::invalid_argument("save_safetensors: tensor \"" + name + "\" value " + std::to_string(i) +
                                            " is not finite");
        header[name] = {{"dtype", "F32"}, {"shape", tensor.shape}, {"data_offsets", {offset, offset + 4 * elements}}};
        offset += 4 * elements;
    }
    if (!checkpoint.metadata.empty()) header[metadata_key] = checkpoint.metadata;

    std::string text;
    try {
        text = header.dump();
    } catch (const json::exception &error) {
        throw std::invalid_argument(std::string("save_safetensors: ") + error.what());
    }
    // Pad with spaces so the data starts 8-byte aligned, as the reference implementation does.
    while (text.size() % 8 != 0) text += ' ';

    std::vector<std::uint8_t> bytes;
    bytes.reserve(8 + text.size() + offset);
    const std::uint64_t length = text.size();
    for (int byte = 0; byte < 8; ++byte) bytes.push_back(static_cast<std::uint8_t>(length >> (8 * byte)));
    bytes.insert(bytes.end(), text.begin(), text.end());
    for (const auto &[name, tensor] : checkpoint.tensors)
        for (float value : tensor.data) append_u32_le(bytes, float_bits(value));
    return bytes;
}

namespace {

// The document built from nlohmann's SAX events, refusing a key twice in one object and nesting
// deeper than the limit as it goes. json::parse with a callback would do the same, but it
// instantiates nlohmann's parser a second time (its callback builder beside the plain one) and
// keeps a set of keys per open object; this builder asks the object being filled instead.
struct DuplicateKey {
    std::string key;
};
struct TooDeep {};

class CheckedBuilder {
  public:
    json root;

    bool null() { return put(nullptr); }
    bool boolean(bool value) { return put(value); }
    bool number_integer(json::number_integer_t value) { return put(value); }
    bool number_unsigned(json::number_unsigned_t value) { return put(value); }
    bool number_float(json::number_float_t value, const json::string_t &) { return put(value); }
    bool string(json::string_t &value) { return put(std::move(value)); }
    bool binary(json::binary_t &value) { return put(json::binary(std::move(value))); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t &key) {
        json &object = *open_.back();
        if (object.contains(key)) throw DuplicateKey{std::move(key)};
        slot_ = &object[std::move(key)];
        return true;
    }
    template <class Exception> bool parse_error(std::size_t, const std::string &, const Exception &error) {
        throw error;
    }

  private:
    std::vector<json *> open_; // the objects and arrays being filled, innermost last
    json *slot_ = nullptr;     // the value of the key just read

    // Where the next value goes: the root, the end of the innermost array or the key just read.
    json *place(json &&value) {
        if (open_.empty()) {
            root = std::move(value);
            return &root;
        }
        json &parent = *open_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        *slot_ = std::move(value);
        return slot_;
    }
    bool put(json &&value) {
        place(std::move(value));
        return true;
    }
    bool open(json &&container) {
        open_.push_back(place(std::move(container)));
        if (open_.size() > limits::max_json_depth) throw TooDeep{};
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }
};

} // namespace

json parse_json(std::string_view text, const std::string &field) {
    const std::string what = field == "header" ? "header" : "metadata field " + quote(field);
    if (text.size() > limits::max_json_bytes)
        fail(what + " is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                 std::to_string(limits::max_json_bytes),
             field, static_cast<std::int64_t>(limits::max_json_bytes));
    try {
        CheckedBuilder builder;
        json::sax_parse(text.begin(), text.end(), &builder);
        return std::move(builder.root);
    } catch (const DuplicateKey &duplicate) {
        fail(what + " has the key " + quote(duplicate.key) + " twice", field);
    } catch (const TooDeep &) {
        fail(what + " nests deeper than " + std::to_string(limits::max_json_depth) + " levels", field,
             static_cast<std::int64_t>(limits::max_json_depth));
    } catch (const json::exception &error) {
        fail(what + " is not valid JSON (" + error.what() + ")", field);
    }
}

Checkpoint load_safetensors(std::span<const std::uint8_t> bytes) {
    if (bytes.size() > limits::max_file_bytes)
        fail("file is " + std::to_string(bytes.size()) + " bytes, more than the limit of " +
                 std::to_string(limits::max_file_bytes),
             "file", static_cast<std::int64_t>(limits::max_file_bytes));
    if (bytes.size() < 8)
        fail("file is " + std::to_string(bytes.size()) + " bytes, too short for the 8-byte header length",
             "header_length");
    std::uint64_t header_length = 0;
    for (int byte = 0; byte < 8; ++byte) header_length |= static_cast<std::uint64_t>(bytes[byte]) << (8 * byte);
    if (header_length > max_header_bytes)
        fail("header length " + std::to_string(header_length) + " is larger than the limit of " +
                 std::to_string(max_header_bytes) + " bytes",
             "header_length", static_cast<std::int64_t>(max_header_bytes));
    if (header_length > bytes.size() - 8)
        fail("header length " + std::to_string(header_length) + " runs past the end of the file (" +
                 std::to_string(bytes.size()) + " bytes)",
             "header_length");

    const std::string_view text(reinterpret_cast<const char *>(bytes.data() + 8), header_length);
    const json header = parse_json(text, "header");
    if (!header.is_object()) fail("header is not a JSON object");

    Checkpoint checkpoint;
    std::vector<Entry> entries;
    for (const auto &[name, spec] : header.items()) {
        if (name == metadata_key) {
            if (!spec.is_object()) fail("__metadata__ must be an object of strings", metadata_key);
            for (const auto &[key, value] : spec.items()) {
                if (!value.is_string()) fail("__metadata__ value " + quote(key) + " is not a string", key);
                checkpoint.metadata[key] = value.get<std::string>();
            }
            continue;
        }
        entries.push_back(read_entry(name, spec));
    }

    // The tensors must tile the data section exactly: no overlap, no gap, nothing after.
    const std::uint64_t data_size = bytes.size() - 8 - header_length;
    const std::uint8_t *data = bytes.data() + 8 + header_length;
    for (const auto &entry : entries)
        if (entry.end > data_size)
            fail("tensor " + quote(entry.name) + " data_offsets [" + std::to_string(entry.begin) + ", " +
                     std::to_string(entry.end) + "] run past the data section (" + std::to_string(data_size) +
                     " bytes)",
                 entry.name);
    std::vector<const Entry *> by_offset;
    for (const auto &entry : entries) by_offset.push_back(&entry);
    std::sort(by_offset.begin(), by_offset.end(), [](const Entry *a, const Entry *b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t covered = 0;
    std::string previous = "the start of the data section";
    for (const Entry *entry : by_offset) {
        if (entry->begin < covered)
            fail("tensor " + quote(entry->name) + " data_offsets overlap " + previous, entry->name);
        if (entry->begin > covered)
            fail("gap of " + std::to_string(entry->begin - covered) + " bytes in the data section before tensor " +
                     quote(entry->name),
                 entry->name);
        covered = entry->end;
        previous = "tensor " + quote(entry->name);
    }
    if (covered != data_size)
        fail("data section has " + std::to_string(data_size - covered) +
                 " bytes that belong to no tensor (the file is longer than its header says)",
             "data");

    for (const auto &entry : entries) {
        NamedTensor tensor{entry.shape, std::vector<float>(entry.elements)};
        for (std::uint64_t i = 0; i < entry.elements; ++i) {
            const float value = bits_float(read_u32_le(data + entry.begin + 4 * i));
            if (!std::isfinite(value))
                fail("tensor " + quote(entry.name) + " value " + std::to_string(i) + " is " +
                         (std::isnan(value) ? "NaN" : "infinite"),
                     entry.name);
            tensor.data[i] = value;
        }
        checkpoint.tensors.emplace(entry.name, std::move(tensor));
    }
    return checkpoint;
}

} // namespace apg::io
