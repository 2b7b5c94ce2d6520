// Errors a caller can act on without reading English: a stable code, the message for people, and
// the facts behind it (the unknown word and its suggestions, the limit that was exceeded, the
// field of a checkpoint that is wrong). The bindings hand all three to JavaScript; the page
// decides by code and shows the message.
//
// Each class also derives from the standard exception the library has always thrown for that
// kind of failure (bad input → std::invalid_argument, bad file → std::runtime_error, a call out
// of order → std::logic_error), so code that catches those keeps working.
#pragma once

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace apg {

enum class ErrorCode {
    empty_input,    // the text has no tokens
    unknown_token,  // details: "tokens" (the unknown ones), "suggestions" (known near ones)
    too_long,       // details: "length", "limit"
    bad_checkpoint, // a file the loader rejects; details: "field" where one is to blame
    bad_argument,   // a value passed in is out of range or of the wrong kind; details: "name", "limit"
    bad_state,      // a call out of order (step after the end, a deleted object)
    limit_exceeded, // a resource limit (memory, size) would be passed; details: "limit"
};

inline constexpr ErrorCode all_error_codes[] = {
    ErrorCode::empty_input,  ErrorCode::unknown_token, ErrorCode::too_long,       ErrorCode::bad_checkpoint,
    ErrorCode::bad_argument, ErrorCode::bad_state,     ErrorCode::limit_exceeded,
};

constexpr std::string_view name(ErrorCode code) {
    switch (code) {
    case ErrorCode::empty_input:
        return "empty_input";
    case ErrorCode::unknown_token:
        return "unknown_token";
    case ErrorCode::too_long:
        return "too_long";
    case ErrorCode::bad_checkpoint:
        return "bad_checkpoint";
    case ErrorCode::bad_argument:
        return "bad_argument";
    case ErrorCode::bad_state:
        return "bad_state";
    case ErrorCode::limit_exceeded:
        return "limit_exceeded";
    }
    return "bad_state";
}

using DetailValue = std::variant<std::int64_t, double, std::string, std::vector<std::string>>;
using Details = std::vector<std::pair<std::string, DetailValue>>;

// The part every coded error shares; catch `const Error &` to read it.
class Error {
  public:
    Error(ErrorCode code, Details details) : code_(code), details_(std::move(details)) {}
    virtual ~Error() = default;
    ErrorCode code() const { return code_; }
    const Details &details() const { return details_; }
    virtual const char *message() const noexcept = 0;
    // The whole message: what() and message() end at a NUL byte the text may hold (a quoted word).
    virtual std::string_view text() const noexcept = 0;

  private:
    ErrorCode code_;
    Details details_;
};

namespace detail {
template <class Std> class CodedError : public Std, public Error {
  public:
    CodedError(ErrorCode code, const std::string &message, Details details = {})
        : Std(message), Error(code, std::move(details)), text_(message) {}
    const char *message() const noexcept override { return this->what(); }
    std::string_view text() const noexcept override { return text_; }

  private:
    std::string text_;
};
} // namespace detail

using InputError = detail::CodedError<std::invalid_argument>; // bad text or values from the caller
using FileError = detail::CodedError<std::runtime_error>;     // a file the loader rejects
using StateError = detail::CodedError<std::logic_error>;      // a call out of order

// The code of any exception: a coded error's own, otherwise the one its standard type stands for.
inline ErrorCode code_of(const std::exception &e) {
    if (const auto *coded = dynamic_cast<const Error *>(&e)) return coded->code();
    if (dynamic_cast<const std::invalid_argument *>(&e) || dynamic_cast<const std::out_of_range *>(&e))
        return ErrorCode::bad_argument;
    if (dynamic_cast<const std::logic_error *>(&e)) return ErrorCode::bad_state;
    if (dynamic_cast<const std::bad_alloc *>(&e)) return ErrorCode::limit_exceeded;
    return ErrorCode::bad_checkpoint;
}

} // namespace apg
