// zh: a small English -> Chinese grammar around the running example "tom chase jerry" -> 汤姆 追逐 杰瑞.
//
// English is lowercase words (the words tokenizer drops . , ! ?); Chinese targets are words joined
// by spaces. The grammar has people and animals (tom 汤姆, the cat 猫, a big dog 一 只 大 狗), food
// and things, verbs in four tenses with negation (chase 追逐, chased 追 了, is chasing 在 追逐, will
// chase 会 追逐, did not chase 没有 追), frequency adverbs, time phrases and place phrases that move
// before the verb in Chinese ("tom chased jerry in the kitchen yesterday" -> 汤姆 昨天 在 厨房 追 了
// 杰瑞), possessives that refer back to the subject ("the cat ate its fish" -> 猫 吃 了 它 的 鱼) and
// reported speech whose pronoun refers back to the speaker ("tom said that he was hungry" -> 汤姆 说
// 他 饿 了). Sentences have at most 14 words. The present tense also accepts the bare verb after a
// name, so the running example "tom chase jerry" is a sentence of the grammar.
#pragma once

#include "tasks/task.hpp"

#include <string>
#include <utility>
#include <vector>

namespace apg::tasks {

inline constexpr std::size_t zh_max_source_words = 14;

// Showcase sentences rendered by the grammar (English, Chinese); always in the training set.
std::vector<std::pair<std::string, std::string>> zh_showcase();

// A random sentence of the grammar and its translation.
Pair draw_zh_sentence(core::Rng &rng);
// The showcase as pairs: what training must hold.
std::vector<Pair> zh_showcase_pairs();

} // namespace apg::tasks
