#include "tasks/dates.hpp"
#include "tasks/reverse.hpp"
#include "tasks/task.hpp"
#include "tasks/zh.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

using apg::tasks::Date;
using apg::tasks::Example;
using apg::tasks::make_task;
using apg::tasks::TaskData;

namespace {

// The full tasks (20,000 + 1,000) are generated once per test process, only by the contract
// tests; content checks run on the first 2,000 + 100 examples of the same stream.
constexpr std::size_t small_train = 2000, small_heldout = 100;

TaskData small_task(const std::string &name, std::uint64_t seed = 1) {
    return make_task(name, seed, small_train, small_heldout);
}

std::map<std::string, std::string> by_source(const TaskData &data) {
    std::map<std::string, std::string> out;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) out[example.source_text] = example.target_text;
    return out;
}

std::string joined(const std::vector<std::string> &tokens, const char *joiner) {
    std::string out;
    for (std::size_t i = 0; i < tokens.size(); ++i) out += (i ? joiner : "") + tokens[i];
    return out;
}

std::size_t count_of(const std::string &text, const std::string &part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
    return count;
}

// What every task promises: 20,000 train and 1,000 held-out examples with distinct sources, none
// of the held-out ones in train; tokens that are the tokenizers' reading of the texts; length
// limits of the longest sequence + 4; held-out examples that use only tokens seen in training.
void check_task_contract(const std::string &name) {
    CAPTURE(name);
    const TaskData data = make_task(name, 1);
    CHECK(data.name == name);
    CHECK(data.train.size() == 20000);
    CHECK(data.heldout.size() == 1000);

    const auto source_vocab = apg::tasks::source_vocabulary(data);
    const auto target_vocab = apg::tasks::target_vocabulary(data);
    // Sources are written as their tokens joined (characters: "", words: " "), so distinct texts
    // are distinct token sequences.
    const char *joiner = data.source_tokenizer == apg::io::Tokenizer::characters ? "" : " ";
    std::size_t longest_source = 0, longest_target = 0, mismatches = 0;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) {
            mismatches += source_vocab.tokenize(example.source_text) != example.source;
            mismatches += target_vocab.tokenize(example.target_text) != example.target;
            mismatches += joined(example.source, joiner) != example.source_text;
            mismatches += example.source.empty() || example.target.empty();
            longest_source = std::max(longest_source, example.source.size());
            longest_target = std::max(longest_target, example.target.size());
        }
    CHECK(mismatches == 0);
    CHECK(data.max_source_len == longest_source + 4);
    CHECK(data.max_target_len == longest_target + 4);

    std::set<std::string_view> train_sources, heldout_sources;
    std::set<std::string_view> train_tokens;
    for (const auto &example : data.train) {
        train_sources.insert(example.source_text);
        for (const auto *tokens : {&example.source, &example.target})
            for (const auto &token : *tokens) train_tokens.insert(token);
    }
    std::size_t heldout_in_train = 0, unseen_tokens = 0;
    for (const auto &example : data.heldout) {
        heldout_in_train += train_sources.count(example.source_text);
        heldout_sources.insert(example.source_text);
        for (const auto *tokens : {&example.source, &example.target})
            for (const auto &token : *tokens) unseen_tokens += train_tokens.count(token) == 0;
    }
    CHECK(train_sources.size() == data.train.size());
    CHECK(heldout_sources.size() == data.heldout.size());
    CHECK(heldout_in_train == 0);
    // Held-out accuracy then measures generalisation to new sentences, not to new words.
    CHECK(unseen_tokens == 0);
}

} // namespace

TEST_CASE("the task names are dates, zh and reverse, and an unknown name is refused") {
    CHECK(apg::tasks::task_names() == std::vector<std::string>{"dates", "zh", "reverse"});
    CHECK_THROWS_WITH_AS(make_task("french", 1), "unknown task \"french\" (expected dates, zh or reverse)",
                         std::invalid_argument);
}

TEST_CASE("dates: 20,000 + 1,000 distinct examples, split by source, tokens as the tokenizer reads them") {
    check_task_contract("dates");
}

TEST_CASE("reverse: 20,000 + 1,000 distinct examples, split by source, tokens as the tokenizer reads them") {
    check_task_contract("reverse");
}

TEST_CASE("zh: 20,000 + 1,000 distinct examples, split by source, tokens as the tokenizer reads them") {
    check_task_contract("zh");
}

TEST_CASE("the same seed gives the same examples, another seed others, and a smaller task is a prefix") {
    for (const auto &name : apg::tasks::task_names()) {
        CAPTURE(name);
        const TaskData first = small_task(name), again = small_task(name), other = small_task(name, 2);
        const TaskData smaller = make_task(name, 1, 500, 20);
        REQUIRE(first.train.size() == small_train);
        REQUIRE(first.heldout.size() == small_heldout);
        std::size_t differences = 0, same_as_other = 0;
        for (std::size_t i = 0; i < small_train; ++i) {
            differences += again.train[i].source_text != first.train[i].source_text ||
                           again.train[i].target_text != first.train[i].target_text;
            same_as_other += other.train[i].source_text == first.train[i].source_text;
        }
        for (std::size_t i = 0; i < small_heldout; ++i)
            differences += again.heldout[i].source_text != first.heldout[i].source_text;
        for (std::size_t i = 0; i < smaller.train.size(); ++i)
            differences += smaller.train[i].source_text != first.train[i].source_text;
        for (std::size_t i = 0; i < smaller.heldout.size(); ++i)
            differences += smaller.heldout[i].source_text != first.train[500 + i].source_text;
        CHECK(differences == 0);
        CHECK(same_as_other < 50); // zh's 4 showcase sentences are in every seed's data
    }
}

TEST_CASE("a task too small for its required examples is refused") {
    CHECK_THROWS_AS(make_task("zh", 1, 3, 10), std::invalid_argument);
    CHECK(make_task("zh", 1, 4, 1).train.size() == 4);
}

TEST_CASE("dates: civil day counts and weekdays match known dates") {
    using apg::tasks::days_from_civil;
    CHECK(days_from_civil({1970, 1, 1}) == 0);
    CHECK(days_from_civil({2000, 3, 1}) == 11017);
    CHECK(apg::tasks::civil_from_days(11017) == Date{2000, 3, 1});
    CHECK(apg::tasks::weekday({2026, 11, 29}) == 6); // a sunday
    CHECK(apg::tasks::weekday({1969, 7, 20}) == 6);  // the moon landing, a sunday
    CHECK(apg::tasks::weekday({2000, 2, 29}) == 1);  // a tuesday
    CHECK(apg::tasks::is_valid_date({2000, 2, 29}));
    CHECK_FALSE(apg::tasks::is_valid_date({1900, 2, 29}));
    CHECK_FALSE(apg::tasks::is_valid_date({2026, 4, 31}));
}

TEST_CASE("dates: the running example in each format") {
    const Date date{2026, 11, 29};
    std::set<std::string> written;
    for (int format = 0; format < apg::tasks::date_format_count(); ++format)
        written.insert(apg::tasks::format_date(date, format));
    for (const char *expected : {"29 november 2026", "nov 29, 2026", "11/29/26", "29.11.2026", "sunday, 29 nov. 2026",
                                 "2026/11/29", "november 29th 2026", "29 nov 26", "the 29th of november 2026",
                                 "sun, nov 29 2026", "sunday, november 29, 2026", "29-nov-2026", "2026-11-29"}) {
        CAPTURE(expected);
        CHECK(written.count(expected) == 1);
    }
    CHECK(apg::tasks::format_date({2001, 3, 2}, 8) == "march 2nd 2001");
    CHECK(apg::tasks::format_date({2013, 5, 11}, 8) == "may 11th 2013");
    CHECK(apg::tasks::format_date({1999, 1, 3}, 2) == "1/3/99");
    CHECK_THROWS_AS(apg::tasks::format_date(date, apg::tasks::date_format_count()), std::invalid_argument);
    CHECK_THROWS_AS(apg::tasks::format_date({2026, 2, 30}, 0), std::invalid_argument);
}

TEST_CASE("dates: every target is an ISO date in range and its source names that date") {
    static const char *months[] = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    static const char *weekdays[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
    const TaskData data = small_task("dates");
    std::size_t wrong = 0;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) {
            const std::string &t = example.target_text;
            const Date date{std::stoi(t.substr(0, 4)), std::stoi(t.substr(5, 2)), std::stoi(t.substr(8, 2))};
            bool ok = t.size() == 10 && apg::tasks::is_valid_date(date) && date.year >= 1950 && date.year <= 2049 &&
                      apg::tasks::iso_date(date) == t;
            const std::string &s = example.source_text;
            // The year, in four or two digits.
            ok = ok && (s.find(t.substr(0, 4)) != std::string::npos || s.find(t.substr(2, 2)) != std::string::npos);
            // The day, and a month written as a word is the right month (no month's abbreviation
            // hides inside another month's or a weekday's name).
            ok = ok && s.find(std::to_string(date.day)) != std::string::npos;
            for (int m = 0; m < 12; ++m) ok = ok && (s.find(months[m]) == std::string::npos || m + 1 == date.month);
            // A weekday, when written, is the date's weekday.
            for (int w = 0; w < 7; ++w)
                if (s.find(weekdays[w]) != std::string::npos) ok = ok && w == apg::tasks::weekday(date);
            wrong += !ok;
            if (!ok && wrong < 5) MESSAGE(s << " -> " << t);
        }
    CHECK(wrong == 0);
}

TEST_CASE("reverse: each target is its source reversed, 3 to 15 letters from a to j") {
    const TaskData data = small_task("reverse");
    std::size_t wrong = 0;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) {
            std::vector<std::string> reversed(example.source.rbegin(), example.source.rend());
            bool ok = reversed == example.target && example.source.size() >= 3 && example.source.size() <= 15;
            for (const auto &token : example.source) ok = ok && token.size() == 1 && token[0] >= 'a' && token[0] <= 'j';
            wrong += !ok;
        }
    CHECK(wrong == 0);
    CHECK(data.max_source_len <= 19);
}

TEST_CASE("zh: the showcase and a sample of generated sentences translate as a person would") {
    const std::vector<std::pair<std::string, std::string>> expected{
        {"tom chase jerry", "汤姆 追逐 杰瑞"},
        {"tom chased jerry in the kitchen yesterday", "汤姆 昨天 在 厨房 追 了 杰瑞"},
        {"the cat ate its fish", "猫 吃 了 它 的 鱼"},
        {"tom said that he was hungry", "汤姆 说 他 饿 了"},
    };
    CHECK(apg::tasks::zh_showcase() == expected);
    // They are in the training data, so the shipped models have seen them.
    std::map<std::string, std::string> train;
    const TaskData data = small_task("zh");
    for (const auto &example : data.train) train[example.source_text] = example.target_text;
    for (const auto &entry : expected) {
        const std::string &en = entry.first, &zh = entry.second;
        CAPTURE(en);
        REQUIRE(train.count(en) == 1);
        CHECK(train.at(en) == zh);
    }

    // A sample of sentences checked by hand: those the seed happened to generate must match.
    const std::vector<std::pair<std::string, std::string>> checked{
        {"lily caught jerry's hungry cat in the kitchen yesterday", "莉莉 昨天 在 厨房 抓住 了 杰瑞 的 饥饿 的 猫"},
        {"last week the dog caught jerry", "上周 狗 抓住 了 杰瑞"},
        {"yesterday jerry said tom was not sad", "昨天 杰瑞 说 汤姆 不 难过"},
        {"the hungry girl told tom that she was hungry", "饥饿 的 女孩 告诉 汤姆 她 饿 了"},
        {"this morning the teacher did not buy the black key in the living room",
         "今天 早上 老师 没有 在 客厅 买 黑 钥匙"},
        {"john says that he is tired", "约翰 说 他 很 累"},
        {"jerry chased the boy's cat last week", "杰瑞 上周 追 了 男孩 的 猫"},
        {"the boy is not eating the cake at home now", "男孩 现在 没有 在 家 吃 蛋糕"},
        {"tom is kissing the girl in the park", "汤姆 正 在 公园 亲 女孩"},
        {"tom lost his toy at school", "汤姆 在 学校 丢 了 他 的 玩具"},
        {"mary does not lose a small ball at home", "玛丽 不 在 家 丢 一 个 小 球"},
        {"tom will lose the big key next week", "汤姆 下周 会 丢 大 钥匙"},
        {"the girl thought that mary took her toy", "女孩 觉得 玛丽 拿 了 她 的 玩具"},
    };
    const auto all = by_source(data);
    int found = 0;
    for (const auto &entry : checked) {
        const std::string &en = entry.first, &zh = entry.second;
        CAPTURE(en);
        const auto it = all.find(en);
        if (it == all.end()) continue;
        ++found;
        CHECK(it->second == zh);
    }
    // The sample was taken from seed 1's data: a change to the grammar that drops many of them
    // must come with a new hand-checked sample.
    CHECK(found >= 10);
}

TEST_CASE("zh: short sentences, Chinese word targets, time and place before the verb, possessives as pronoun + 的") {
    const TaskData data = small_task("zh");
    std::size_t too_long = 0, ascii_targets = 0, not_words = 0;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) {
            too_long += example.source.size() > apg::tasks::zh_max_source_words;
            for (char c : example.target_text) ascii_targets += c != ' ' && static_cast<unsigned char>(c) < 0x80;
            not_words += joined(example.target, " ") != example.target_text;
        }
    CHECK(too_long == 0);
    CHECK(ascii_targets == 0);
    CHECK(not_words == 0);

    const std::vector<std::pair<std::string, std::string>> times{
        {" yesterday", "昨天 "}, {" last night", "昨晚 "}, {" tomorrow", "明天 "}, {" today", "今天 "}};
    const std::vector<std::pair<std::string, std::string>> places{
        {" in the kitchen ", "在 厨房 "}, {" in the garden ", "在 花园 "}, {" in the park ", "在 公园 "}};
    std::size_t time_and_place = 0, possessives = 0, wrong = 0;
    for (const auto &entry : by_source(data)) {
        const std::string &en = entry.first, &zh = entry.second;
        CAPTURE(en);
        const std::string padded = " " + en + " ";
        // "... in the kitchen yesterday" -> "... 昨天 在 厨房 <verb> ...": time, then place, then the verb.
        for (const auto &time : times)
            for (const auto &place : places)
                if (padded.find(place.first + time.first.substr(1) + " ") != std::string::npos &&
                    padded.rfind(time.first + " ") + time.first.size() + 1 == padded.size()) {
                    ++time_and_place;
                    const auto time_at = zh.find(time.second), place_at = zh.find(place.second);
                    wrong += time_at == std::string::npos || place_at == std::string::npos || time_at > place_at;
                }
        // its -> 它 的, his -> 他 的, her -> 她 的 (her is only ever a possessive in the grammar).
        for (const auto &possessive : std::vector<std::pair<std::string, std::string>>{
                 {" its ", "它 的"}, {" his ", "他 的"}, {" her ", "她 的"}}) {
            possessives += count_of(padded, possessive.first);
            wrong += count_of(padded, possessive.first) != count_of(zh, possessive.second);
        }
    }
    CHECK(time_and_place >= 10);
    CHECK(possessives >= 100);
    CHECK(wrong == 0);
}
