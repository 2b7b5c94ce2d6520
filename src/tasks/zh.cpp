#include "tasks/zh.hpp"

#include "tasks/assemble.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

namespace apg::tasks {

namespace {

using detail::chance;
using detail::pick;
// Words point into the static lexicon below, so building a sentence allocates only its vectors.
using Words = std::vector<std::string_view>;

enum class Gender { male, female, either, neuter };

// Kinds of noun as bits, so a verb can name the set it takes.
using Kinds = unsigned;
constexpr Kinds person = 1, animal = 2, food = 4, thing = 8;
constexpr Kinds anyone = person | animal, anything = person | animal | food | thing;

struct Noun {
    std::string_view en, zh, measure; // measure word for "a": 一 只 猫
    Kinds kind;
    Gender gender;
    bool proper;               // a name: no article, no adjective
    std::string_view owner_en; // "tom's": the possessive, for "tom's ball"
};

constexpr std::array<Noun, 25> nouns{{
    {"tom", "汤姆", "个", person, Gender::male, true, "tom's"},
    {"jerry", "杰瑞", "个", person, Gender::male, true, "jerry's"},
    {"mary", "玛丽", "个", person, Gender::female, true, "mary's"},
    {"john", "约翰", "个", person, Gender::male, true, "john's"},
    {"lily", "莉莉", "个", person, Gender::female, true, "lily's"},
    {"teacher", "老师", "个", person, Gender::either, false, "teacher's"},
    {"doctor", "医生", "个", person, Gender::either, false, "doctor's"},
    {"boy", "男孩", "个", person, Gender::male, false, "boy's"},
    {"girl", "女孩", "个", person, Gender::female, false, "girl's"},
    {"cat", "猫", "只", animal, Gender::neuter, false, "cat's"},
    {"dog", "狗", "只", animal, Gender::neuter, false, "dog's"},
    {"mouse", "老鼠", "只", animal, Gender::neuter, false, "mouse's"},
    {"bird", "鸟", "只", animal, Gender::neuter, false, "bird's"},
    {"rabbit", "兔子", "只", animal, Gender::neuter, false, "rabbit's"},
    {"horse", "马", "匹", animal, Gender::neuter, false, "horse's"},
    {"fish", "鱼", "条", food, Gender::neuter, false, "fish's"},
    {"cheese", "奶酪", "块", food, Gender::neuter, false, "cheese's"},
    {"bread", "面包", "块", food, Gender::neuter, false, "bread's"},
    {"apple", "苹果", "个", food, Gender::neuter, false, "apple's"},
    {"cake", "蛋糕", "块", food, Gender::neuter, false, "cake's"},
    {"ball", "球", "个", thing, Gender::neuter, false, "ball's"},
    {"book", "书", "本", thing, Gender::neuter, false, "book's"},
    {"hat", "帽子", "顶", thing, Gender::neuter, false, "hat's"},
    {"toy", "玩具", "个", thing, Gender::neuter, false, "toy's"},
    {"key", "钥匙", "把", thing, Gender::neuter, false, "key's"},
}};

const Noun &noun(std::string_view en) {
    for (const auto &n : nouns)
        if (n.en == en) return n;
    throw std::logic_error("zh: no noun \"" + std::string(en) + "\"");
}

// The nouns of each set of kinds, computed once.
// The items whose kinds meet each set of kinds (kinds_of(item) & set), for sets 0..15.
template <class Items, class KindsOf> auto by_kinds(const Items &items, KindsOf kinds_of) {
    std::array<std::vector<const typename Items::value_type *>, 16> table;
    for (Kinds k = 0; k < 16; ++k)
        for (const auto &item : items)
            if (kinds_of(item) & k) table[k].push_back(&item);
    return table;
}

const std::vector<const Noun *> &nouns_of(Kinds kinds) {
    static const auto table = by_kinds(nouns, [](const Noun &n) { return n.kind; });
    return table.at(kinds);
}

struct Adjective {
    std::string_view en;
    std::string_view zh; // one-syllable adjectives attach directly (大 猫),
    bool with_de;        // longer ones with 的 (聪明 的 猫)
    Kinds kinds;
};

constexpr std::array<Adjective, 15> adjectives{{
    {"big", "大", false, animal | food | thing},
    {"small", "小", false, animal | food | thing},
    {"little", "小", false, person | animal},
    {"black", "黑", false, animal | thing},
    {"white", "白", false, animal | thing},
    {"red", "红", false, food | thing},
    {"new", "新", false, thing},
    {"old", "老", false, person | animal},
    {"young", "年轻", true, person},
    {"clever", "聪明", true, person | animal},
    {"lazy", "懒惰", true, person | animal},
    {"angry", "生气", true, person | animal},
    {"hungry", "饥饿", true, person | animal},
    {"happy", "快乐", true, person | animal},
    {"fresh", "新鲜", true, food},
}};

const Adjective *random_adjective(core::Rng &rng, Kinds kind) {
    static const auto table = by_kinds(adjectives, [](const Adjective &a) { return a.kinds; });
    return pick(rng, table.at(kind));
}

enum class Tense { present, past, progressive, future };

struct Verb {
    std::string_view base, third, past, ing; // chase chases chased chasing
    std::string_view zh, zh_past;            // 追逐, 追 (+ 了 when affirmative)
    Kinds subjects, objects;
    bool progressive; // "is finding" is not English
};

constexpr std::array<Verb, 17> verbs{{
    {"chase", "chases", "chased", "chasing", "追逐", "追", anyone, anyone, true},
    {"catch", "catches", "caught", "catching", "抓", "抓住", anyone, anyone, true},
    {"bite", "bites", "bit", "biting", "咬", "咬", animal, anyone, true},
    {"help", "helps", "helped", "helping", "帮助", "帮助", person, anyone, true},
    {"follow", "follows", "followed", "following", "跟踪", "跟踪", anyone, anyone, true},
    {"watch", "watches", "watched", "watching", "看", "看", anyone, anyone, true},
    {"push", "pushes", "pushed", "pushing", "推", "推", anyone, anyone, true},
    {"feed", "feeds", "fed", "feeding", "喂", "喂", person, anyone, true},
    {"visit", "visits", "visited", "visiting", "拜访", "拜访", person, person, true},
    {"kiss", "kisses", "kissed", "kissing", "亲", "亲", person, anyone, true},
    {"wash", "washes", "washed", "washing", "洗", "洗", person, anything, true},
    {"see", "sees", "saw", "seeing", "看见", "看见", anyone, anything, false},
    {"find", "finds", "found", "finding", "找到", "找到", anyone, anything, false},
    {"eat", "eats", "ate", "eating", "吃", "吃", anyone, food, true},
    {"buy", "buys", "bought", "buying", "买", "买", person, food | thing, true},
    {"take", "takes", "took", "taking", "拿", "拿", person, food | thing, true},
    {"lose", "loses", "lost", "losing", "丢", "丢", person, thing, false},
}};

const Verb &verb(std::string_view base) {
    for (const auto &v : verbs)
        if (v.base == base) return v;
    throw std::logic_error("zh: no verb \"" + std::string(base) + "\"");
}

struct Phrase {
    std::string_view en, zh; // several words, space-separated
    unsigned tenses;         // bits (1 << Tense) the phrase goes with; 0 = any
};

constexpr unsigned bit(Tense t) { return 1u << static_cast<unsigned>(t); }

// Time phrases: at the end (or the start) in English, after the subject (or at the start) in Chinese.
constexpr std::array<Phrase, 11> times{{
    {"yesterday", "昨天", bit(Tense::past)},
    {"last night", "昨晚", bit(Tense::past)},
    {"this morning", "今天 早上", bit(Tense::past)},
    {"last week", "上周", bit(Tense::past)},
    {"today", "今天", bit(Tense::past) | bit(Tense::progressive) | bit(Tense::future)},
    {"now", "现在", bit(Tense::progressive)},
    {"tomorrow", "明天", bit(Tense::future)},
    {"tonight", "今晚", bit(Tense::future)},
    {"next week", "下周", bit(Tense::future)},
    {"every day", "每天", bit(Tense::present)},
    {"every morning", "每天 早上", bit(Tense::present)},
}};

// Frequency adverbs sit before the verb in both languages (present tense only).
constexpr std::array<Phrase, 4> adverbs{{
    {"often", "经常", 0},
    {"always", "总是", 0},
    {"usually", "通常", 0},
    {"sometimes", "有时", 0},
}};

// Place phrases: after the object in English, 在 + place before the verb in Chinese.
constexpr std::array<Phrase, 8> places{{
    {"in the kitchen", "厨房", 0},
    {"in the garden", "花园", 0},
    {"in the park", "公园", 0},
    {"in the living room", "客厅", 0},
    {"in the yard", "院子", 0},
    {"in the forest", "森林", 0},
    {"at school", "学校", 0},
    {"at home", "家", 0},
}};

template <std::size_t n> const Phrase &phrase(const std::array<Phrase, n> &list, std::string_view en) {
    for (const auto &p : list)
        if (p.en == en) return p;
    throw std::logic_error("zh: no phrase \"" + std::string(en) + "\"");
}

template <class T, std::size_t n> const T &pick(core::Rng &rng, const std::array<T, n> &items) {
    return items[static_cast<std::size_t>(rng.below(n))];
}

struct NounPhrase {
    Words en, zh;
    const Noun *head = nullptr; // nullptr for a pronoun
    Kinds kind = person;
    Gender gender = Gender::neuter; // as a pronoun would refer to it
    bool pronoun = false;
};

void add_adjective(NounPhrase &np, const Adjective *adjective) {
    if (!adjective) return;
    np.en.push_back(adjective->en);
    np.zh.push_back(adjective->zh);
    if (adjective->with_de) np.zh.push_back("的");
}

void add_head(NounPhrase &np, const Noun &n) {
    np.en.push_back(n.en);
    np.zh.push_back(n.zh);
}

NounPhrase name_or_the(const Noun &n, const Adjective *adjective = nullptr) {
    NounPhrase np{{}, {}, &n, n.kind, n.gender, false};
    if (!n.proper) np.en.push_back("the");
    add_adjective(np, adjective);
    add_head(np, n);
    return np;
}

NounPhrase indefinite(const Noun &n, const Adjective *adjective) {
    NounPhrase np{{}, {"一", n.measure}, &n, n.kind, n.gender, false};
    const std::string_view first = adjective ? adjective->en : n.en;
    np.en.push_back(std::string_view("aeiou").find(first[0]) != std::string_view::npos ? "an" : "a");
    add_adjective(np, adjective);
    add_head(np, n);
    return np;
}

// "his dog" / "jerry's dog" / "the cat's fish": owner 的 noun.
NounPhrase owned(Words owner_en, Words owner_zh, const Noun &n, const Adjective *adjective) {
    NounPhrase np{std::move(owner_en), std::move(owner_zh), &n, n.kind, n.gender, false};
    np.zh.push_back("的");
    add_adjective(np, adjective);
    add_head(np, n);
    return np;
}

NounPhrase pronoun(Gender gender) {
    if (gender == Gender::male) return {{"he"}, {"他"}, nullptr, person, gender, true};
    if (gender == Gender::female) return {{"she"}, {"她"}, nullptr, person, gender, true};
    return {{"it"}, {"它"}, nullptr, animal, gender, true};
}

Gender resolve(core::Rng &rng, Gender gender) {
    if (gender != Gender::either) return gender;
    return chance(rng, 0.5) ? Gender::male : Gender::female;
}

// The possessive that refers back to a noun phrase: his 他 (的) / her 她 / its 它.
std::pair<std::string_view, std::string_view> possessive_of(core::Rng &rng, const NounPhrase &np) {
    const Gender gender = resolve(rng, np.gender);
    if (gender == Gender::male) return {"his", "他"};
    if (gender == Gender::female) return {"her", "她"};
    return {"its", "它"};
}

NounPhrase random_subject(core::Rng &rng, Kinds kinds) {
    const Noun &n = *pick(rng, nouns_of(kinds));
    const Adjective *adjective = !n.proper && chance(rng, 0.25) ? random_adjective(rng, n.kind) : nullptr;
    return name_or_the(n, adjective);
}

NounPhrase random_object(core::Rng &rng, Kinds kinds, const NounPhrase &subject) {
    const Noun &n = *pick(rng, nouns_of(kinds));
    if (n.proper) return name_or_the(n);
    const Adjective *adjective = chance(rng, 0.25) ? random_adjective(rng, n.kind) : nullptr;
    const double roll = rng.uniform();
    if (roll < 0.45) return name_or_the(n, adjective);
    if (roll < 0.65 || n.kind == person) return indefinite(n, adjective);
    // People own animals, food and things; animals own only food and things ("the cat's fish").
    const bool animal_owner_fits = n.kind != animal;
    if (roll < 0.85 && (subject.kind == person || animal_owner_fits)) {
        const auto [en, zh] = possessive_of(rng, subject);
        return owned({en}, {zh}, n, adjective);
    }
    // Someone else's: "jerry's cheese", "the dog's ball".
    const Noun *owner = nullptr;
    do owner = pick(rng, nouns_of(animal_owner_fits ? anyone : person));
    while (owner == subject.head);
    Words owner_en;
    if (!owner->proper) owner_en.push_back("the");
    owner_en.push_back(owner->owner_en);
    return owned(std::move(owner_en), {owner->zh}, n, adjective);
}

struct Clause {
    NounPhrase subject;
    const Verb *verb = nullptr;
    Tense tense = Tense::present;
    bool negated = false;
    bool bare_verb = false; // "tom chase jerry": the running example's headline English
    NounPhrase object;
    const Phrase *time = nullptr;
    bool time_first = false; // "yesterday tom chased jerry"
    const Phrase *adverb = nullptr;
    const Phrase *place = nullptr;
};

void append(Words &to, const Words &from) { to.insert(to.end(), from.begin(), from.end()); }

void render(const Clause &c, Words &en, Words &zh) {
    const Verb &v = *c.verb;
    if (c.time && c.time_first) en.push_back(c.time->en), zh.push_back(c.time->zh);
    append(en, c.subject.en);
    append(zh, c.subject.zh);
    if (c.time && !c.time_first) zh.push_back(c.time->zh);
    if (c.adverb) en.push_back(c.adverb->en), zh.push_back(c.adverb->zh);
    auto place_zh = [&] {
        if (c.place) zh.push_back("在"), zh.push_back(c.place->zh);
    };
    switch (c.tense) {
    case Tense::present:
        if (c.negated)
            en.insert(en.end(), {"does", "not", v.base}), zh.push_back("不");
        else
            en.push_back(c.bare_verb ? v.base : v.third);
        place_zh();
        zh.push_back(v.zh);
        break;
    case Tense::past:
        if (c.negated)
            en.insert(en.end(), {"did", "not", v.base}), zh.push_back("没有");
        else
            en.push_back(v.past);
        place_zh();
        zh.push_back(v.zh_past);
        if (!c.negated) zh.push_back("了");
        break;
    case Tense::progressive:
        en.push_back("is");
        if (c.negated) en.push_back("not"), zh.push_back("没有");
        en.push_back(v.ing);
        // 在 marks the progressive; with a place it is also the locative: 正 在 厨房 追逐.
        if (c.place && !c.negated) zh.push_back("正");
        zh.push_back("在");
        if (c.place) zh.push_back(c.place->zh);
        zh.push_back(v.zh);
        break;
    case Tense::future:
        en.push_back("will");
        if (c.negated) en.push_back("not"), zh.push_back("不");
        en.push_back(v.base);
        zh.push_back("会");
        place_zh();
        zh.push_back(v.zh);
        break;
    }
    append(en, c.object.en);
    append(zh, c.object.zh);
    if (c.place) en.push_back(c.place->en);
    if (c.time && !c.time_first) en.push_back(c.time->en);
}

// A clause with a transitive verb; `full` adds time, place and adverbs.
// `not_objects`: people the object may not be, e.g. the speaker in "mary said she washed mary"
// (English would say "herself").
Clause random_clause(core::Rng &rng, unsigned tenses, bool full, const NounPhrase *subject_given,
                     std::array<const Noun *, 2> not_objects = {}) {
    static constexpr std::array<Tense, 5> weighted{Tense::present, Tense::past, Tense::past, Tense::progressive,
                                                   Tense::future};
    Clause c;
    for (;;) {
        c.verb = &pick(rng, verbs);
        if (subject_given) {
            if (!(c.verb->subjects & subject_given->kind)) continue;
            c.subject = *subject_given;
        } else {
            static constexpr std::array<Gender, 3> genders{Gender::male, Gender::female, Gender::neuter};
            c.subject = chance(rng, 0.08) ? pronoun(pick(rng, genders)) : random_subject(rng, c.verb->subjects);
            if (!(c.verb->subjects & c.subject.kind)) continue;
        }
        do c.tense = pick(rng, weighted);
        while (!(bit(c.tense) & tenses));
        if (c.tense == Tense::progressive && !c.verb->progressive) continue;
        c.object = random_object(rng, c.verb->objects, c.subject);
        if (c.object.head &&
            (c.object.head == c.subject.head || c.object.head == not_objects[0] || c.object.head == not_objects[1]))
            continue; // "tom chased tom"
        break;
    }
    c.negated = chance(rng, 0.15);
    if (!full) return c;
    if (chance(rng, 0.45)) {
        do c.time = &pick(rng, times);
        while (!(c.time->tenses & bit(c.tense)));
        c.time_first = chance(rng, 0.3);
    }
    if (c.tense == Tense::present && !c.negated && !c.time && chance(rng, 0.3)) c.adverb = &pick(rng, adverbs);
    if (chance(rng, 0.4)) c.place = &pick(rng, places);
    c.bare_verb = c.tense == Tense::present && !c.negated && !c.adverb && c.subject.head && c.subject.head->proper &&
                  chance(rng, 0.15);
    return c;
}

struct State {
    std::string_view en, zh;
};

// Adjectives of feeling: is hungry 很 饿, was hungry 饿 了, is not hungry 不 饿.
constexpr std::array<State, 7> states{{
    {"hungry", "饿"},
    {"tired", "累"},
    {"angry", "生气"},
    {"sleepy", "困"},
    {"cold", "冷"},
    {"happy", "高兴"},
    {"sad", "难过"},
}};

void render_state(const NounPhrase &subject, const State &state, bool past, bool negated, Words &en, Words &zh) {
    append(en, subject.en);
    append(zh, subject.zh);
    en.push_back(past ? "was" : "is");
    if (negated)
        en.push_back("not"), zh.push_back("不");
    else if (!past)
        zh.push_back("很");
    en.push_back(state.en);
    zh.push_back(state.zh);
    if (past && !negated) zh.push_back("了");
}

struct Saying {
    std::string_view en_present, en_past, zh;
    bool has_listener;
};

constexpr std::array<Saying, 3> sayings{{
    {"says", "said", "说", false},
    {"thinks", "thought", "觉得", false},
    {"tells", "told", "告诉", true},
}};

// "tom said (that) he was hungry" -> 汤姆 说 他 饿 了; "mary told tom that she found her key"
// -> 玛丽 告诉 汤姆 她 找到 了 她 的 钥匙. The reported subject is usually a pronoun for the speaker.
void random_report(core::Rng &rng, Words &en, Words &zh) {
    const NounPhrase speaker = random_subject(rng, person);
    const Saying &saying = pick(rng, sayings);
    const bool past = chance(rng, 0.6);
    if (past && chance(rng, 0.15)) {
        const Phrase &time = phrase(times, chance(rng, 0.5) ? "yesterday" : "last night");
        en.push_back(time.en);
        zh.push_back(time.zh);
    }
    append(en, speaker.en);
    append(zh, speaker.zh);
    en.push_back(past ? saying.en_past : saying.en_present);
    zh.push_back(saying.zh);
    NounPhrase listener;
    if (saying.has_listener) {
        do listener = random_subject(rng, person);
        while (listener.head == speaker.head);
        append(en, listener.en);
        append(zh, listener.zh);
    }
    if (saying.has_listener || chance(rng, 0.6)) en.push_back("that");

    const double who = rng.uniform();
    NounPhrase subject;
    if (who < 0.55)
        subject = pronoun(resolve(rng, speaker.gender));
    else if (saying.has_listener && who < 0.75)
        subject = pronoun(resolve(rng, listener.gender));
    else
        do subject = random_subject(rng, anyone);
        while (subject.head == speaker.head || subject.head == listener.head);
    if (chance(rng, 0.5)) {
        // Two draws, sequenced: as arguments of one call their order would be unspecified (GCC
        // and clang differ). This is the order the native build used for the shipped models.
        const bool negated = chance(rng, 0.2);
        const auto &state = pick(rng, states);
        render_state(subject, state, past, negated, en, zh);
    } else {
        const Clause inner = random_clause(rng, bit(past ? Tense::past : Tense::present), false, &subject,
                                           {speaker.head, listener.head});
        render(inner, en, zh);
    }
}

// Words joined by spaces; a phrase's own spaces come along.
std::string joined(const Words &words) {
    std::size_t size = words.size();
    for (auto w : words) size += w.size();
    std::string text;
    text.reserve(size);
    for (auto w : words) {
        if (!text.empty()) text += ' ';
        text += w;
    }
    return text;
}

std::size_t word_count(const Words &words) {
    std::size_t count = 0;
    for (auto w : words) count += 1 + static_cast<std::size_t>(std::count(w.begin(), w.end(), ' '));
    return count;
}

} // namespace

Pair draw_zh_sentence(core::Rng &rng) {
    Words en, zh;
    en.reserve(2 * zh_max_source_words);
    zh.reserve(3 * zh_max_source_words);
    for (;;) {
        en.clear();
        zh.clear();
        if (chance(rng, 0.25))
            random_report(rng, en, zh);
        else
            render(random_clause(rng, ~0u, true, nullptr), en, zh);
        if (word_count(en) <= zh_max_source_words) return {joined(en), joined(zh)};
    }
}

std::vector<std::pair<std::string, std::string>> zh_showcase() {
    std::vector<std::pair<std::string, std::string>> out;
    auto add = [&](const Clause &c) {
        Words en, zh;
        render(c, en, zh);
        out.emplace_back(joined(en), joined(zh));
    };
    auto clause = [](NounPhrase subject, std::string_view v, Tense tense, NounPhrase object) {
        Clause c;
        c.subject = std::move(subject);
        c.verb = &verb(v);
        c.tense = tense;
        c.object = std::move(object);
        return c;
    };
    const NounPhrase tom = name_or_the(noun("tom")), jerry = name_or_the(noun("jerry"));

    Clause running = clause(tom, "chase", Tense::present, jerry);
    running.bare_verb = true;
    add(running);

    Clause kitchen = clause(tom, "chase", Tense::past, jerry);
    kitchen.place = &phrase(places, "in the kitchen");
    kitchen.time = &phrase(times, "yesterday");
    add(kitchen);

    add(clause(name_or_the(noun("cat")), "eat", Tense::past, owned({"its"}, {"它"}, noun("fish"), nullptr)));

    Words en{"tom", "said", "that"}, zh{"汤姆", "说"};
    render_state(pronoun(Gender::male), states[0], true, false, en, zh);
    out.emplace_back(joined(en), joined(zh));
    return out;
}

std::vector<Pair> zh_showcase_pairs() {
    std::vector<Pair> out;
    for (auto &[en, zh] : zh_showcase()) out.push_back({std::move(en), std::move(zh)});
    return out;
}

} // namespace apg::tasks
