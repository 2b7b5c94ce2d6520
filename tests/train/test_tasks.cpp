#include "train/tasks/dates.hpp"
#include "train/tasks/reverse.hpp"
#include "train/tasks/task.hpp"
#include "train/tasks/zh.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

using apg::train::Date;
using apg::train::Example;
using apg::train::make_task;
using apg::train::TaskData;

namespace {

// Each task is generated once per seed for the whole suite: generation is the slow part.
const TaskData &task(const std::string &name, std::uint64_t seed = 1) {
    static std::map<std::pair<std::string, std::uint64_t>, TaskData> cache;
    auto found = cache.find({name, seed});
    if (found == cache.end()) found = cache.emplace(std::make_pair(name, seed), make_task(name, seed)).first;
    return found->second;
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

} // namespace

TEST_CASE("the task names are dates, zh and reverse, and an unknown name is refused") {
    CHECK(apg::train::task_names() == std::vector<std::string>{"dates", "zh", "reverse"});
    CHECK_THROWS_WITH_AS(make_task("french", 1), "unknown task \"french\" (expected dates, zh or reverse)",
                         std::invalid_argument);
}

TEST_CASE("every task has 20,000 train and 1,000 held-out examples with distinct sources") {
    for (const auto &name : apg::train::task_names()) {
        CAPTURE(name);
        const TaskData &data = task(name);
        CHECK(data.name == name);
        CHECK(data.train.size() == 20000);
        CHECK(data.heldout.size() == 1000);
        std::set<std::vector<std::string>> train_sources;
        for (const auto &example : data.train) train_sources.insert(example.source);
        CHECK(train_sources.size() == data.train.size());
        std::size_t heldout_in_train = 0;
        std::set<std::vector<std::string>> heldout_sources;
        for (const auto &example : data.heldout) {
            heldout_in_train += train_sources.count(example.source);
            heldout_sources.insert(example.source);
        }
        CHECK(heldout_in_train == 0);
        CHECK(heldout_sources.size() == data.heldout.size());
    }
}

TEST_CASE("the same seed gives the same data and another seed other data") {
    for (const auto &name : apg::train::task_names()) {
        CAPTURE(name);
        const TaskData again = make_task(name, 1);
        const TaskData &first = task(name);
        REQUIRE(again.train.size() == first.train.size());
        bool same = true;
        for (std::size_t i = 0; i < again.train.size(); ++i)
            same = same && again.train[i].source_text == first.train[i].source_text &&
                   again.train[i].target_text == first.train[i].target_text;
        for (std::size_t i = 0; i < again.heldout.size(); ++i)
            same = same && again.heldout[i].source_text == first.heldout[i].source_text;
        CHECK(same);
        CHECK(task(name, 2).heldout.front().source_text != first.heldout.front().source_text);
    }
}

TEST_CASE("tokens are what the task's tokenizers make of the texts, and the limits cover them") {
    for (const auto &name : apg::train::task_names()) {
        CAPTURE(name);
        const TaskData &data = task(name);
        const auto source_vocab = apg::train::source_vocabulary(data);
        const auto target_vocab = apg::train::target_vocabulary(data);
        std::size_t longest_source = 0, longest_target = 0, mismatches = 0;
        for (const auto *set : {&data.train, &data.heldout})
            for (const auto &example : *set) {
                mismatches += source_vocab.tokenize(example.source_text) != example.source;
                mismatches += target_vocab.tokenize(example.target_text) != example.target;
                // Every example encodes with the task's vocabularies (held-out included).
                mismatches += source_vocab.encode(example.source).size() != example.source.size();
                longest_source = std::max(longest_source, example.source.size());
                longest_target = std::max(longest_target, example.target.size());
            }
        CHECK(mismatches == 0);
        CHECK(data.max_source_len == longest_source + 4);
        CHECK(data.max_target_len == longest_target + 4);
    }
}

TEST_CASE("dates: civil day counts and weekdays match known dates") {
    using apg::train::days_from_civil;
    CHECK(days_from_civil({1970, 1, 1}) == 0);
    CHECK(days_from_civil({2000, 3, 1}) == 11017);
    CHECK(apg::train::civil_from_days(11017) == Date{2000, 3, 1});
    CHECK(apg::train::weekday({2026, 11, 29}) == 6); // a sunday
    CHECK(apg::train::weekday({1969, 7, 20}) == 6);  // the moon landing, a sunday
    CHECK(apg::train::weekday({2000, 2, 29}) == 1);  // a tuesday
    CHECK(apg::train::is_valid_date({2000, 2, 29}));
    CHECK_FALSE(apg::train::is_valid_date({1900, 2, 29}));
    CHECK_FALSE(apg::train::is_valid_date({2026, 4, 31}));
}

TEST_CASE("dates: the running example in each format") {
    const Date date{2026, 11, 29};
    std::set<std::string> written;
    for (int format = 0; format < apg::train::date_format_count(); ++format)
        written.insert(apg::train::format_date(date, format));
    for (const char *expected : {"29 november 2026", "nov 29, 2026", "11/29/26", "29.11.2026", "sunday, 29 nov. 2026",
                                 "2026/11/29", "november 29th 2026", "29 nov 26", "the 29th of november 2026",
                                 "sun, nov 29 2026", "sunday, november 29, 2026", "29-nov-2026", "2026-11-29"}) {
        CAPTURE(expected);
        CHECK(written.count(expected) == 1);
    }
    CHECK(apg::train::format_date({2001, 3, 2}, 8) == "march 2nd 2001");
    CHECK(apg::train::format_date({2013, 5, 11}, 8) == "may 11th 2013");
    CHECK(apg::train::format_date({1999, 1, 3}, 2) == "1/3/99");
    CHECK_THROWS_AS(apg::train::format_date(date, apg::train::date_format_count()), std::invalid_argument);
    CHECK_THROWS_AS(apg::train::format_date({2026, 2, 30}, 0), std::invalid_argument);
}

TEST_CASE("dates: every target is an ISO date in range and its source names that date") {
    static const char *months[] = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    static const char *weekdays[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
    const TaskData &data = task("dates");
    std::size_t wrong = 0;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) {
            const std::string &t = example.target_text;
            const Date date{std::stoi(t.substr(0, 4)), std::stoi(t.substr(5, 2)), std::stoi(t.substr(8, 2))};
            bool ok = t.size() == 10 && apg::train::is_valid_date(date) && date.year >= 1950 && date.year <= 2049 &&
                      apg::train::iso_date(date) == t;
            const std::string &s = example.source_text;
            // The year, in four or two digits.
            ok = ok && (s.find(t.substr(0, 4)) != std::string::npos || s.find(t.substr(2, 2)) != std::string::npos);
            // A month written as a word is the right month.
            for (int m = 0; m < 12; ++m)
                if (s.find(months[m]) != std::string::npos && m + 1 != date.month && !(m == 4 && s.find("may") == 0))
                    ok = ok && std::string(months[m]) == "mar" && s.find("march") == std::string::npos && false;
            // A weekday, when written, is the date's weekday.
            for (int w = 0; w < 7; ++w)
                if (s.find(weekdays[w]) != std::string::npos) ok = ok && w == apg::train::weekday(date);
            wrong += !ok;
            if (!ok && wrong < 5) MESSAGE(s << " -> " << t);
        }
    CHECK(wrong == 0);
}

TEST_CASE("reverse: each target is its source reversed, 3 to 15 letters from a to j") {
    const TaskData &data = task("reverse");
    std::size_t wrong = 0;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) {
            std::vector<std::string> reversed(example.source.rbegin(), example.source.rend());
            bool ok = reversed == example.target && example.source.size() >= 3 && example.source.size() <= 15;
            for (const auto &token : example.source) ok = ok && token.size() == 1 && token[0] >= 'a' && token[0] <= 'j';
            wrong += !ok;
        }
    CHECK(wrong == 0);
    CHECK(data.max_source_len == 19);
}

TEST_CASE("zh: the showcase sentences translate as a person would") {
    const std::vector<std::pair<std::string, std::string>> expected{
        {"tom chase jerry", "汤姆 追逐 杰瑞"},
        {"tom chased jerry in the kitchen yesterday", "汤姆 昨天 在 厨房 追 了 杰瑞"},
        {"the cat ate its fish", "猫 吃 了 它 的 鱼"},
        {"tom said that he was hungry", "汤姆 说 他 饿 了"},
    };
    CHECK(apg::train::zh_showcase() == expected);
    // They are in the training data, so the shipped models have seen them.
    std::map<std::string, std::string> train;
    for (const auto &example : task("zh").train) train[example.source_text] = example.target_text;
    for (const auto &entry : expected) {
        const std::string &en = entry.first, &zh = entry.second;
        CAPTURE(en);
        REQUIRE(train.count(en) == 1);
        CHECK(train.at(en) == zh);
    }
}

TEST_CASE("zh: hand-checked sentences that the grammar generates translate correctly") {
    // A sample of sentences checked by hand: those the seed happened to generate must match.
    const std::vector<std::pair<std::string, std::string>> checked{
        {"the doctor washed the mouse last week", "医生 上周 洗 了 老鼠"},
        {"lily fed a mouse", "莉莉 喂 了 一 只 老鼠"},
        {"mary told john that she was tired", "玛丽 告诉 约翰 她 累 了"},
        {"the rabbit ate an apple in the garden last night", "兔子 昨晚 在 花园 吃 了 一 个 苹果"},
        {"the doctor is visiting john in the living room now", "医生 现在 正 在 客厅 拜访 约翰"},
        {"the girl will take a cake today", "女孩 今天 会 拿 一 块 蛋糕"},
        {"the teacher said that he was not angry", "老师 说 他 不 生气"},
        {"she usually loses her toy", "她 通常 丢 她 的 玩具"},
        {"the boy is visiting john", "男孩 在 拜访 约翰"},
    };
    const auto all = by_source(task("zh"));
    int found = 0;
    for (const auto &entry : checked) {
        const std::string &en = entry.first, &zh = entry.second;
        CAPTURE(en);
        const auto it = all.find(en);
        if (it == all.end()) continue;
        ++found;
        CHECK(it->second == zh);
    }
    CHECK(found >= 5); // the sample was taken from seed 1's data, so most must be there
}

TEST_CASE("zh: 20,000 distinct pairs, sentences of at most 14 words, Chinese word targets") {
    const TaskData &data = task("zh");
    std::set<std::pair<std::string, std::string>> pairs;
    std::size_t too_long = 0, ascii_targets = 0;
    for (const auto *set : {&data.train, &data.heldout})
        for (const auto &example : *set) {
            pairs.insert({example.source_text, example.target_text});
            too_long += example.source.size() > apg::train::zh_max_source_words;
            for (char c : example.target_text) ascii_targets += c != ' ' && static_cast<unsigned char>(c) < 0x80;
            CHECK(joined(example.target, " ") == example.target_text);
        }
    CHECK(pairs.size() >= 20000);
    CHECK(too_long == 0);
    CHECK(ascii_targets == 0);
}

std::size_t count_of(const std::string &text, const std::string &part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
    return count;
}

TEST_CASE("zh: time and place phrases move before the verb, and possessives become pronoun + 的") {
    const auto all = by_source(task("zh"));
    std::size_t kitchen_yesterday = 0, possessives = 0, wrong = 0;
    for (const auto &entry : all) {
        const std::string &en = entry.first, &zh = entry.second;
        CAPTURE(en);
        // "... in the kitchen yesterday" -> "... 昨天 在 厨房 <verb> ...": time, then place, then the verb.
        if (en.find("in the kitchen yesterday") != std::string::npos) {
            ++kitchen_yesterday;
            const auto time = zh.find("昨天 "), place = zh.find("在 厨房 ");
            wrong += time == std::string::npos || place == std::string::npos || time > place;
        }
        // its -> 它 的, his -> 他 的, her -> 她 的 (her is only ever a possessive in the grammar).
        const std::string padded = " " + en + " ";
        for (const auto &[english, chinese] : std::vector<std::pair<std::string, std::string>>{
                 {" its ", "它 的"}, {" his ", "他 的"}, {" her ", "她 的"}}) {
            possessives += count_of(padded, english);
            wrong += count_of(padded, english) != count_of(zh, chinese);
        }
    }
    CHECK(kitchen_yesterday >= 10);
    CHECK(possessives >= 1000);
    CHECK(wrong == 0);
}
