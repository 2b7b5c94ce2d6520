// Whether an error message (or any text) holds a fragment, for the tests that check what a message says.
#pragma once

#include <string>

namespace apg::test {

inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

} // namespace apg::test
