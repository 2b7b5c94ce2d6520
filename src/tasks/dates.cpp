#include "tasks/dates.hpp"

#include "tasks/assemble.hpp"

#include <array>
#include <cstdio>
#include <functional>
#include <stdexcept>

namespace apg::tasks {

namespace {

const std::array<const char *, 12> month_names{"january", "february", "march",     "april",   "may",      "june",
                                               "july",    "august",   "september", "october", "november", "december"};
const std::array<const char *, 12> month_abbreviations{"jan", "feb", "mar", "apr", "may", "jun",
                                                       "jul", "aug", "sep", "oct", "nov", "dec"};
const std::array<const char *, 7> weekday_names{"monday", "tuesday",  "wednesday", "thursday",
                                                "friday", "saturday", "sunday"};
const std::array<const char *, 7> weekday_abbreviations{"mon", "tue", "wed", "thu", "fri", "sat", "sun"};

std::string two_digits(int value) {
    char text[8];
    std::snprintf(text, sizeof text, "%02d", value % 100);
    return text;
}

std::string ordinal(int day) {
    const char *suffix = "th";
    if (day % 100 < 11 || day % 100 > 13) {
        if (day % 10 == 1)
            suffix = "st";
        else if (day % 10 == 2)
            suffix = "nd";
        else if (day % 10 == 3)
            suffix = "rd";
    }
    return std::to_string(day) + suffix;
}

using Formatter = std::function<std::string(const Date &)>;

// Every format a person might type; each renders a date the same way every time.
const std::vector<Formatter> &formats() {
    using std::to_string;
    static const std::vector<Formatter> all{
        [](const Date &d) { return to_string(d.day) + " " + month_names[d.month - 1] + " " + to_string(d.year); },
        [](const Date &d) {
            return std::string(month_abbreviations[d.month - 1]) + " " + to_string(d.day) + ", " + to_string(d.year);
        },
        [](const Date &d) { return to_string(d.month) + "/" + to_string(d.day) + "/" + two_digits(d.year); },
        [](const Date &d) { return two_digits(d.month) + "/" + two_digits(d.day) + "/" + two_digits(d.year); },
        [](const Date &d) { return two_digits(d.day) + "." + two_digits(d.month) + "." + to_string(d.year); },
        [](const Date &d) { return to_string(d.day) + "." + to_string(d.month) + "." + to_string(d.year); },
        [](const Date &d) {
            return std::string(weekday_names[weekday(d)]) + ", " + to_string(d.day) + " " +
                   month_abbreviations[d.month - 1] + ". " + to_string(d.year);
        },
        [](const Date &d) { return to_string(d.year) + "/" + two_digits(d.month) + "/" + two_digits(d.day); },
        [](const Date &d) {
            return std::string(month_names[d.month - 1]) + " " + ordinal(d.day) + " " + to_string(d.year);
        },
        [](const Date &d) {
            return to_string(d.day) + " " + month_abbreviations[d.month - 1] + " " + two_digits(d.year);
        },
        [](const Date &d) {
            return std::string(month_names[d.month - 1]) + " " + to_string(d.day) + ", " + to_string(d.year);
        },
        [](const Date &d) { return two_digits(d.month) + "/" + two_digits(d.day) + "/" + to_string(d.year); },
        [](const Date &d) { return two_digits(d.day) + "-" + two_digits(d.month) + "-" + to_string(d.year); },
        [](const Date &d) { return iso_date(d); },
        [](const Date &d) {
            return "the " + ordinal(d.day) + " of " + month_names[d.month - 1] + " " + to_string(d.year);
        },
        [](const Date &d) {
            return std::string(weekday_names[weekday(d)]) + " " + to_string(d.day) + " " + month_names[d.month - 1] +
                   " " + to_string(d.year);
        },
        [](const Date &d) {
            return std::string(weekday_abbreviations[weekday(d)]) + ", " + month_abbreviations[d.month - 1] + " " +
                   to_string(d.day) + " " + to_string(d.year);
        },
        [](const Date &d) {
            return std::string(weekday_names[weekday(d)]) + ", " + month_names[d.month - 1] + " " + to_string(d.day) +
                   ", " + to_string(d.year);
        },
        [](const Date &d) { return ordinal(d.day) + " " + month_abbreviations[d.month - 1] + " " + to_string(d.year); },
        [](const Date &d) {
            return std::string(month_abbreviations[d.month - 1]) + ". " + to_string(d.day) + ", " + to_string(d.year);
        },
        [](const Date &d) {
            return two_digits(d.day) + "-" + month_abbreviations[d.month - 1] + "-" + to_string(d.year);
        },
        [](const Date &d) {
            return to_string(d.day) + " " + month_abbreviations[d.month - 1] + ". " + two_digits(d.year);
        },
    };
    return all;
}

} // namespace

long days_from_civil(Date date) {
    // Howard Hinnant's algorithm: count from 0000-03-01 so the leap day ends the year.
    const long y = date.year - (date.month <= 2 ? 1 : 0);
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long year_of_era = y - era * 400;
    const long day_of_year = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1;
    const long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

Date civil_from_days(long days) {
    days += 719468;
    const long era = (days >= 0 ? days : days - 146096) / 146097;
    const long day_of_era = days - era * 146097;
    const long year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const long mp = (5 * day_of_year + 2) / 153;
    const int day = static_cast<int>(day_of_year - (153 * mp + 2) / 5 + 1);
    const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    return Date{static_cast<int>(year_of_era + era * 400 + (month <= 2 ? 1 : 0)), month, day};
}

int weekday(Date date) {
    // 1970-01-01 was a thursday (3 with monday = 0).
    const long shifted = (days_from_civil(date) + 3) % 7;
    return static_cast<int>(shifted < 0 ? shifted + 7 : shifted);
}

bool is_valid_date(Date date) {
    if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31) return false;
    return civil_from_days(days_from_civil(date)) == date;
}

std::string iso_date(Date date) {
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d", date.year, date.month, date.day);
    return text;
}

int date_format_count() { return static_cast<int>(formats().size()); }

std::string format_date(Date date, int format) {
    if (format < 0 || format >= date_format_count())
        throw std::invalid_argument("format_date: format " + std::to_string(format) + " is outside [0, " +
                                    std::to_string(date_format_count()) + ")");
    if (!is_valid_date(date))
        throw std::invalid_argument("format_date: " + std::to_string(date.year) + "-" + std::to_string(date.month) +
                                    "-" + std::to_string(date.day) + " is not a date");
    return formats()[static_cast<std::size_t>(format)](date);
}

Pair draw_date(core::Rng &rng) {
    static const long first = days_from_civil({dates_first_year, 1, 1});
    static const long count = days_from_civil({dates_last_year, 12, 31}) - first + 1;
    const Date date = civil_from_days(first + static_cast<long>(rng.below(static_cast<std::uint64_t>(count))));
    const int format = static_cast<int>(rng.below(static_cast<std::uint64_t>(date_format_count())));
    return {format_date(date, format), iso_date(date)};
}

} // namespace apg::tasks
