// Text from a file or a person, quoted for a message: control characters (NUL among them, which
// would end a C string and cut the message short) and the quote and backslash are escaped, so the
// message shows exactly what was there and always reaches its end.
#pragma once

#include <string>
#include <string_view>

namespace apg {

inline std::string quote(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20 || byte == 0x7f) {
            out += "\\u00";
            out += hex[byte >> 4];
            out += hex[byte & 0xf];
        } else {
            out += c;
        }
    }
    return out + '"';
}

} // namespace apg
