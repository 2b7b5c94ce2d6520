// heldoutPairs(task, seed): a task's held-out pairs as texts, exactly the ones `apg eval` decodes
// for a model trained with that data seed (tasks::make_task). The page's length chart evaluates
// them, so its numbers equal a native `apg eval --by-length` run. Conversion only.
#include "../convert.hpp"
#include "../handle.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"
#include "tasks/task.hpp"

#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace apg::wasm {
namespace {

val heldout_pairs_js(val task, val seed) {
    const std::vector<std::string> names = tasks::task_names();
    std::string list;
    for (const auto &n : names) list += (list.empty() ? "" : ", ") + n;
    if (!task.isString()) bad_argument("task", ": expected a task name (" + list + "), got " + describe(task));
    const std::string name = name_from_js(task, "task");
    if (std::find(names.begin(), names.end(), name) == names.end())
        bad_argument("task", ": there is no task " + quote(name.substr(0, 40)) + " (" + list + ")");
    const auto s =
        seed.isUndefined()
            ? std::uint64_t{1}
            : static_cast<std::uint64_t>(whole_number(seed, "seed", 0, static_cast<std::int64_t>(limits::max_seed)));
    const tasks::TaskData data = tasks::make_task(name, s);
    return array_of(data.heldout, [](const tasks::Example &e) {
        val pair = val::array();
        pair.call<void>("push", e.source_text);
        pair.call<void>("push", e.target_text);
        return pair;
    });
}

} // namespace
} // namespace apg::wasm

EMSCRIPTEN_BINDINGS(apg_heldout) {
    using namespace apg::wasm;
    exported("heldoutPairs", entry<heldout_pairs_js>, 1);
}
