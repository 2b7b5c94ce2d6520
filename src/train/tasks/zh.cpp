#include "train/tasks/zh.hpp"

#include "train/tasks/assemble.hpp"

#include <stdexcept>

namespace apg::train {

namespace {

using detail::chance;
using detail::pick;
using Words = std::vector<std::string>;

enum class Gender { male, female, either, neuter };
enum class Kind { person, animal, food, thing };

struct Noun {
    std::string en, zh, measure; // measure word for "a": 一 只 猫
    Kind kind;
    Gender gender;
    bool proper; // a name: no article, no adjective
};

const std::vector<Noun> &nouns() {
    static const std::vector<Noun> all{
        {"tom", "汤姆", "个", Kind::person, Gender::male, true},
        {"jerry", "杰瑞", "个", Kind::person, Gender::male, true},
        {"mary", "玛丽", "个", Kind::person, Gender::female, true},
        {"john", "约翰", "个", Kind::person, Gender::male, true},
        {"lily", "莉莉", "个", Kind::person, Gender::female, true},
        {"teacher", "老师", "个", Kind::person, Gender::either, false},
        {"doctor", "医生", "个", Kind::person, Gender::either, false},
        {"boy", "男孩", "个", Kind::person, Gender::male, false},
        {"girl", "女孩", "个", Kind::person, Gender::female, false},
        {"cat", "猫", "只", Kind::animal, Gender::neuter, false},
        {"dog", "狗", "只", Kind::animal, Gender::neuter, false},
        {"mouse", "老鼠", "只", Kind::animal, Gender::neuter, false},
        {"bird", "鸟", "只", Kind::animal, Gender::neuter, false},
        {"rabbit", "兔子", "只", Kind::animal, Gender::neuter, false},
        {"horse", "马", "匹", Kind::animal, Gender::neuter, false},
        {"fish", "鱼", "条", Kind::food, Gender::neuter, false},
        {"cheese", "奶酪", "块", Kind::food, Gender::neuter, false},
        {"bread", "面包", "块", Kind::food, Gender::neuter, false},
        {"apple", "苹果", "个", Kind::food, Gender::neuter, false},
        {"cake", "蛋糕", "块", Kind::food, Gender::neuter, false},
        {"ball", "球", "个", Kind::thing, Gender::neuter, false},
        {"book", "书", "本", Kind::thing, Gender::neuter, false},
        {"hat", "帽子", "顶", Kind::thing, Gender::neuter, false},
        {"toy", "玩具", "个", Kind::thing, Gender::neuter, false},
        {"key", "钥匙", "把", Kind::thing, Gender::neuter, false},
    };
    return all;
}

const Noun &noun(const std::string &en) {
    for (const auto &n : nouns())
        if (n.en == en) return n;
    throw std::logic_error("zh: no noun \"" + en + "\"");
}

struct Adjective {
    std::string en;
    Words zh; // one-syllable adjectives attach directly (大 猫), longer ones with 的 (聪明 的 猫)
    std::vector<Kind> kinds;
};

const std::vector<Adjective> &adjectives() {
    static const std::vector<Adjective> all{
        {"big", {"大"}, {Kind::animal, Kind::food, Kind::thing}},
        {"small", {"小"}, {Kind::animal, Kind::food, Kind::thing}},
        {"little", {"小"}, {Kind::person, Kind::animal}},
        {"black", {"黑"}, {Kind::animal, Kind::thing}},
        {"white", {"白"}, {Kind::animal, Kind::thing}},
        {"red", {"红"}, {Kind::food, Kind::thing}},
        {"new", {"新"}, {Kind::thing}},
        {"old", {"老"}, {Kind::person, Kind::animal}},
        {"young", {"年轻", "的"}, {Kind::person}},
        {"clever", {"聪明", "的"}, {Kind::person, Kind::animal}},
        {"lazy", {"懒惰", "的"}, {Kind::person, Kind::animal}},
        {"angry", {"生气", "的"}, {Kind::person, Kind::animal}},
        {"hungry", {"饥饿", "的"}, {Kind::person, Kind::animal}},
        {"happy", {"快乐", "的"}, {Kind::person, Kind::animal}},
        {"fresh", {"新鲜", "的"}, {Kind::food}},
    };
    return all;
}

const Adjective *random_adjective(core::Rng &rng, Kind kind) {
    std::vector<const Adjective *> fitting;
    for (const auto &adjective : adjectives())
        for (Kind k : adjective.kinds)
            if (k == kind) fitting.push_back(&adjective);
    return pick(rng, fitting);
}

enum class Tense { present, past, progressive, future };

struct Verb {
    std::string base, third, past, ing; // chase chases chased chasing
    std::string zh, zh_past;            // 追逐, 追 (+ 了 when affirmative)
    std::vector<Kind> subjects, objects;
    bool progressive = true; // "is finding" is not English
};

const std::vector<Verb> &verbs() {
    const std::vector<Kind> anyone{Kind::person, Kind::animal}, people{Kind::person}, animals{Kind::animal};
    static const std::vector<Verb> all{
        {"chase", "chases", "chased", "chasing", "追逐", "追", anyone, anyone},
        {"catch", "catches", "caught", "catching", "抓", "抓住", anyone, anyone},
        {"bite", "bites", "bit", "biting", "咬", "咬", animals, anyone},
        {"help", "helps", "helped", "helping", "帮助", "帮助", people, anyone},
        {"follow", "follows", "followed", "following", "跟踪", "跟踪", anyone, anyone},
        {"watch", "watches", "watched", "watching", "看", "看", anyone, anyone},
        {"push", "pushes", "pushed", "pushing", "推", "推", anyone, anyone},
        {"feed", "feeds", "fed", "feeding", "喂", "喂", people, anyone},
        {"visit", "visits", "visited", "visiting", "拜访", "拜访", people, people},
        {"kiss", "kisses", "kissed", "kissing", "亲", "亲", people, anyone},
        {"wash",
         "washes",
         "washed",
         "washing",
         "洗",
         "洗",
         people,
         {Kind::person, Kind::animal, Kind::food, Kind::thing}},
        {"see",
         "sees",
         "saw",
         "seeing",
         "看见",
         "看见",
         anyone,
         {Kind::person, Kind::animal, Kind::food, Kind::thing},
         false},
        {"find",
         "finds",
         "found",
         "finding",
         "找到",
         "找到",
         anyone,
         {Kind::person, Kind::animal, Kind::food, Kind::thing},
         false},
        {"eat", "eats", "ate", "eating", "吃", "吃", anyone, {Kind::food}},
        {"buy", "buys", "bought", "buying", "买", "买", people, {Kind::food, Kind::thing}},
        {"take", "takes", "took", "taking", "拿", "拿", people, {Kind::food, Kind::thing}},
        {"lose", "loses", "lost", "losing", "丢", "丢", people, {Kind::thing}, false},
    };
    return all;
}

const Verb &verb(const std::string &base) {
    for (const auto &v : verbs())
        if (v.base == base) return v;
    throw std::logic_error("zh: no verb \"" + base + "\"");
}

bool contains(const std::vector<Kind> &kinds, Kind kind) {
    for (Kind k : kinds)
        if (k == kind) return true;
    return false;
}

struct Phrase {
    Words en, zh;
    std::vector<Tense> tenses; // the tenses a time phrase goes with
};

// Time phrases: at the end (or the start) in English, after the subject (or at the start) in Chinese.
const std::vector<Phrase> &times() {
    using T = Tense;
    static const std::vector<Phrase> all{
        {{"yesterday"}, {"昨天"}, {T::past}},
        {{"last", "night"}, {"昨晚"}, {T::past}},
        {{"this", "morning"}, {"今天", "早上"}, {T::past}},
        {{"last", "week"}, {"上周"}, {T::past}},
        {{"today"}, {"今天"}, {T::past, T::progressive, T::future}},
        {{"now"}, {"现在"}, {T::progressive}},
        {{"tomorrow"}, {"明天"}, {T::future}},
        {{"tonight"}, {"今晚"}, {T::future}},
        {{"next", "week"}, {"下周"}, {T::future}},
        {{"every", "day"}, {"每天"}, {T::present}},
        {{"every", "morning"}, {"每天", "早上"}, {T::present}},
    };
    return all;
}

// Frequency adverbs sit before the verb in both languages (present tense only).
const std::vector<Phrase> &adverbs() {
    static const std::vector<Phrase> all{
        {{"often"}, {"经常"}, {}},
        {{"always"}, {"总是"}, {}},
        {{"usually"}, {"通常"}, {}},
        {{"sometimes"}, {"有时"}, {}},
    };
    return all;
}

// Place phrases: after the object in English, 在 + place before the verb in Chinese.
const std::vector<Phrase> &places() {
    static const std::vector<Phrase> all{
        {{"in", "the", "kitchen"}, {"厨房"}, {}}, {{"in", "the", "garden"}, {"花园"}, {}},
        {{"in", "the", "park"}, {"公园"}, {}},    {{"in", "the", "living", "room"}, {"客厅"}, {}},
        {{"in", "the", "yard"}, {"院子"}, {}},    {{"in", "the", "forest"}, {"森林"}, {}},
        {{"at", "school"}, {"学校"}, {}},         {{"at", "home"}, {"家"}, {}},
    };
    return all;
}

const Phrase &phrase(const std::vector<Phrase> &list, const std::string &en) {
    for (const auto &p : list) {
        std::string joined;
        for (const auto &w : p.en) joined += (joined.empty() ? "" : " ") + w;
        if (joined == en) return p;
    }
    throw std::logic_error("zh: no phrase \"" + en + "\"");
}

void append(Words &to, const Words &from) { to.insert(to.end(), from.begin(), from.end()); }

struct NounPhrase {
    Words en, zh;
    const Noun *head = nullptr; // nullptr for a pronoun
    Kind kind = Kind::person;
    Gender gender = Gender::neuter; // as a pronoun would refer to it
    bool pronoun = false;
};

NounPhrase name_or_the(const Noun &n, const Adjective *adjective = nullptr) {
    NounPhrase np{{}, {}, &n, n.kind, n.gender, false};
    if (!n.proper) np.en.push_back("the");
    if (adjective) {
        np.en.push_back(adjective->en);
        append(np.zh, adjective->zh);
    }
    np.en.push_back(n.en);
    np.zh.push_back(n.zh);
    return np;
}

NounPhrase indefinite(const Noun &n, const Adjective *adjective) {
    NounPhrase np{{}, {"一", n.measure}, &n, n.kind, n.gender, false};
    const std::string &first = adjective ? adjective->en : n.en;
    np.en.push_back(std::string("aeiou").find(first[0]) != std::string::npos ? "an" : "a");
    if (adjective) {
        np.en.push_back(adjective->en);
        append(np.zh, adjective->zh);
    }
    np.en.push_back(n.en);
    np.zh.push_back(n.zh);
    return np;
}

// "his dog" / "jerry's dog" / "the cat's fish": owner 的 noun.
NounPhrase owned(const Words &owner_en, const Words &owner_zh, const Noun &n, const Adjective *adjective) {
    NounPhrase np{owner_en, owner_zh, &n, n.kind, n.gender, false};
    np.zh.push_back("的");
    if (adjective) {
        np.en.push_back(adjective->en);
        append(np.zh, adjective->zh);
    }
    np.en.push_back(n.en);
    np.zh.push_back(n.zh);
    return np;
}

NounPhrase pronoun(Gender gender) {
    if (gender == Gender::male) return {{"he"}, {"他"}, nullptr, Kind::person, gender, true};
    if (gender == Gender::female) return {{"she"}, {"她"}, nullptr, Kind::person, gender, true};
    return {{"it"}, {"它"}, nullptr, Kind::animal, gender, true};
}

// The possessive that refers back to a noun phrase: his 他 的 / her 她 的 / its 它 的.
std::pair<Words, Words> possessive_of(core::Rng &rng, const NounPhrase &np) {
    Gender gender = np.gender;
    if (gender == Gender::either) gender = chance(rng, 0.5) ? Gender::male : Gender::female;
    if (gender == Gender::male) return {{"his"}, {"他"}};
    if (gender == Gender::female) return {{"her"}, {"她"}};
    return {{"its"}, {"它"}};
}

// A pronoun referring back to a noun phrase, e.g. in reported speech.
NounPhrase pronoun_for(core::Rng &rng, const NounPhrase &np) {
    Gender gender = np.gender;
    if (gender == Gender::either) gender = chance(rng, 0.5) ? Gender::male : Gender::female;
    return pronoun(gender);
}

const Noun &random_noun(core::Rng &rng, const std::vector<Kind> &kinds) {
    std::vector<const Noun *> fitting;
    for (const auto &n : nouns())
        if (contains(kinds, n.kind)) fitting.push_back(&n);
    return *pick(rng, fitting);
}

NounPhrase random_subject(core::Rng &rng, const std::vector<Kind> &kinds) {
    const Noun &n = random_noun(rng, kinds);
    const Adjective *adjective = !n.proper && chance(rng, 0.25) ? random_adjective(rng, n.kind) : nullptr;
    return name_or_the(n, adjective);
}

NounPhrase random_object(core::Rng &rng, const std::vector<Kind> &kinds, const NounPhrase &subject) {
    const Noun &n = random_noun(rng, kinds);
    if (n.proper) return name_or_the(n);
    const Adjective *adjective = chance(rng, 0.25) ? random_adjective(rng, n.kind) : nullptr;
    const double roll = rng.uniform();
    if (roll < 0.45) return name_or_the(n, adjective);
    if (roll < 0.65 || n.kind == Kind::person) return indefinite(n, adjective);
    // People own animals, food and things; animals own only food and things ("the cat's fish").
    const bool animal_owner_fits = n.kind != Kind::animal;
    if (roll < 0.85 && (subject.kind == Kind::person || animal_owner_fits)) {
        const auto [en, zh] = possessive_of(rng, subject);
        return owned(en, zh, n, adjective);
    }
    // Someone else's: "jerry's cheese", "the dog's ball".
    const Noun *owner = nullptr;
    do
        owner = &random_noun(rng, animal_owner_fits ? std::vector<Kind>{Kind::person, Kind::animal}
                                                    : std::vector<Kind>{Kind::person});
    while (owner == subject.head);
    NounPhrase owner_np = name_or_the(*owner);
    owner_np.en.back() += "'s";
    return owned(owner_np.en, owner_np.zh, n, adjective);
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

detail::Pair join(const Words &en, const Words &zh) {
    detail::Pair pair;
    for (const auto &w : en) pair.source_text += (pair.source_text.empty() ? "" : " ") + w;
    for (const auto &w : zh) pair.target_text += (pair.target_text.empty() ? "" : " ") + w;
    return pair;
}

void render(const Clause &c, Words &en, Words &zh) {
    const Verb &v = *c.verb;
    if (c.time && c.time_first) {
        append(en, c.time->en);
        append(zh, c.time->zh);
    }
    append(en, c.subject.en);
    append(zh, c.subject.zh);
    if (c.time && !c.time_first) append(zh, c.time->zh);
    if (c.adverb) {
        append(en, c.adverb->en);
        append(zh, c.adverb->zh);
    }
    Words place_zh;
    if (c.place) place_zh = Words{"在"}, append(place_zh, c.place->zh);
    switch (c.tense) {
    case Tense::present:
        if (c.negated)
            en.insert(en.end(), {"does", "not", v.base}), zh.push_back("不");
        else
            en.push_back(c.bare_verb ? v.base : v.third);
        append(zh, place_zh);
        zh.push_back(v.zh);
        break;
    case Tense::past:
        if (c.negated)
            en.insert(en.end(), {"did", "not", v.base}), zh.push_back("没有");
        else
            en.push_back(v.past);
        append(zh, place_zh);
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
        if (c.place) append(zh, c.place->zh);
        zh.push_back(v.zh);
        break;
    case Tense::future:
        en.push_back("will");
        if (c.negated) en.push_back("not"), zh.push_back("不");
        en.push_back(v.base);
        zh.push_back("会");
        append(zh, place_zh);
        zh.push_back(v.zh);
        break;
    }
    append(en, c.object.en);
    append(zh, c.object.zh);
    if (c.place) append(en, c.place->en);
    if (c.time && !c.time_first) append(en, c.time->en);
}

bool same_referent(const NounPhrase &a, const NounPhrase &b) {
    return a.head && b.head && a.head == b.head && a.en == b.en;
}

// A clause with a transitive verb; `full` adds time, place and adverbs.
Clause random_clause(core::Rng &rng, std::vector<Tense> tenses, bool full, const NounPhrase *subject_given) {
    Clause c;
    for (;;) {
        c.verb = &pick(rng, verbs());
        if (subject_given) {
            if (!contains(c.verb->subjects, subject_given->kind)) continue;
            c.subject = *subject_given;
        } else {
            c.subject = chance(rng, 0.08)
                            ? pronoun(pick(rng, std::vector<Gender>{Gender::male, Gender::female, Gender::neuter}))
                            : random_subject(rng, c.verb->subjects);
            if (!contains(c.verb->subjects, c.subject.kind)) continue;
        }
        c.tense = pick(rng, tenses);
        if (c.tense == Tense::progressive && !c.verb->progressive) continue;
        c.object = random_object(rng, c.verb->objects, c.subject);
        if (c.object.head && c.subject.head && c.object.head == c.subject.head) continue;
        if (same_referent(c.subject, c.object)) continue;
        break;
    }
    c.negated = chance(rng, 0.15);
    if (!full) return c;
    if (chance(rng, 0.45)) {
        std::vector<const Phrase *> fitting;
        for (const auto &t : times())
            for (Tense tense : t.tenses)
                if (tense == c.tense) fitting.push_back(&t);
        c.time = pick(rng, fitting);
        c.time_first = chance(rng, 0.3);
    }
    if (c.tense == Tense::present && !c.negated && !c.time && chance(rng, 0.3)) c.adverb = &pick(rng, adverbs());
    if (chance(rng, 0.4)) c.place = &pick(rng, places());
    c.bare_verb = c.tense == Tense::present && !c.negated && !c.adverb && c.subject.head && c.subject.head->proper &&
                  chance(rng, 0.15);
    return c;
}

struct State {
    std::string en;
    Words zh;
};

// Adjectives of feeling: is hungry 很 饿, was hungry 饿 了, is not hungry 不 饿.
const std::vector<State> &states() {
    static const std::vector<State> all{
        {"hungry", {"饿"}}, {"tired", {"累"}},   {"angry", {"生气"}}, {"sleepy", {"困"}},
        {"cold", {"冷"}},   {"happy", {"高兴"}}, {"sad", {"难过"}},
    };
    return all;
}

void render_state(const NounPhrase &subject, const State &state, bool past, bool negated, Words &en, Words &zh) {
    append(en, subject.en);
    append(zh, subject.zh);
    en.push_back(past ? "was" : "is");
    if (negated)
        en.push_back("not"), zh.push_back("不");
    else if (!past)
        zh.push_back("很");
    en.push_back(state.en);
    append(zh, state.zh);
    if (past && !negated) zh.push_back("了");
}

struct Saying {
    std::string en_present, en_past, zh;
    bool has_listener;
};

const std::vector<Saying> &sayings() {
    static const std::vector<Saying> all{
        {"says", "said", "说", false},
        {"thinks", "thought", "觉得", false},
        {"tells", "told", "告诉", true},
    };
    return all;
}

// "tom said (that) he was hungry" -> 汤姆 说 他 饿 了; "mary told tom that she found her key"
// -> 玛丽 告诉 汤姆 她 找到 了 她 的 钥匙. The reported subject is usually a pronoun for the speaker.
detail::Pair random_report(core::Rng &rng) {
    const NounPhrase speaker = random_subject(rng, {Kind::person});
    const Saying &saying = pick(rng, sayings());
    const bool past = chance(rng, 0.6);
    Words en, zh;
    if (past && chance(rng, 0.15)) {
        const Phrase &time = phrase(times(), chance(rng, 0.5) ? "yesterday" : "last night");
        append(en, time.en);
        append(zh, time.zh);
    }
    append(en, speaker.en);
    append(zh, speaker.zh);
    en.push_back(past ? saying.en_past : saying.en_present);
    zh.push_back(saying.zh);
    NounPhrase listener;
    if (saying.has_listener) {
        do listener = random_subject(rng, {Kind::person});
        while (listener.head == speaker.head);
        append(en, listener.en);
        append(zh, listener.zh);
    }
    if (saying.has_listener || chance(rng, 0.6)) en.push_back("that");

    const double who = rng.uniform();
    NounPhrase subject = who < 0.55                          ? pronoun_for(rng, speaker)
                         : saying.has_listener && who < 0.75 ? pronoun_for(rng, listener)
                                                             : NounPhrase{};
    while (!subject.pronoun && (!subject.head || subject.head == speaker.head || subject.head == listener.head))
        subject = random_subject(rng, {Kind::person, Kind::animal});
    if (chance(rng, 0.5)) {
        render_state(subject, pick(rng, states()), past, chance(rng, 0.2), en, zh);
    } else {
        const Clause inner = random_clause(rng, {past ? Tense::past : Tense::present}, false, &subject);
        render(inner, en, zh);
    }
    return join(en, zh);
}

detail::Pair random_sentence(core::Rng &rng) {
    for (;;) {
        detail::Pair pair;
        if (chance(rng, 0.25))
            pair = random_report(rng);
        else {
            const Clause c = random_clause(
                rng, {Tense::present, Tense::past, Tense::past, Tense::progressive, Tense::future}, true, nullptr);
            Words en, zh;
            render(c, en, zh);
            pair = join(en, zh);
        }
        std::size_t words = 1;
        for (char ch : pair.source_text) words += ch == ' ';
        if (words <= zh_max_source_words) return pair;
    }
}

} // namespace

std::vector<std::pair<std::string, std::string>> zh_showcase() {
    std::vector<std::pair<std::string, std::string>> out;
    auto add = [&](const Words &en, const Words &zh) {
        const auto pair = join(en, zh);
        out.emplace_back(pair.source_text, pair.target_text);
    };
    const NounPhrase tom = name_or_the(noun("tom")), jerry = name_or_the(noun("jerry"));
    const NounPhrase cat = name_or_the(noun("cat"));
    auto clause = [](NounPhrase subject, const char *v, Tense tense, NounPhrase object) {
        Clause c;
        c.subject = std::move(subject);
        c.verb = &verb(v);
        c.tense = tense;
        c.object = std::move(object);
        return c;
    };
    {
        Clause c = clause(tom, "chase", Tense::present, jerry);
        c.bare_verb = true;
        Words en, zh;
        render(c, en, zh);
        add(en, zh);
    }
    {
        Clause c = clause(tom, "chase", Tense::past, jerry);
        c.place = &phrase(places(), "in the kitchen");
        c.time = &phrase(times(), "yesterday");
        Words en, zh;
        render(c, en, zh);
        add(en, zh);
    }
    {
        Clause c = clause(cat, "eat", Tense::past, owned({"its"}, {"它"}, noun("fish"), nullptr));
        Words en, zh;
        render(c, en, zh);
        add(en, zh);
    }
    {
        Words en{"tom", "said", "that"}, zh{"汤姆", "说"};
        render_state(pronoun(Gender::male), states().front(), true, false, en, zh);
        add(en, zh);
    }
    return out;
}

TaskData make_zh_task(std::uint64_t seed) {
    core::Rng rng(seed);
    detail::TaskSpec spec;
    spec.name = "zh";
    spec.source_tokenizer = spec.target_tokenizer = models::Tokenizer::words;
    for (const auto &[en, zh] : zh_showcase()) spec.required_in_train.push_back({en, zh});
    return detail::assemble(spec, rng, random_sentence);
}

} // namespace apg::train
