// dates: a date written the way people write it ("sunday, 29 nov. 2026", "11/29/26", ...) to
// ISO 8601 ("2026-11-29"). Character tokens; years 1950–2049, so a two-digit year yy means 19yy
// for yy >= 50 and 20yy below. Slashes with the year last are US order (month first); dots and
// dashes with the year last are day first; the year first is always year/month/day.
#pragma once

#include "tasks/task.hpp"

#include <string>

namespace apg::tasks {

struct Date {
    int year = 0, month = 0, day = 0; // month 1–12, day 1–31
    friend bool operator==(const Date &, const Date &) = default;
};

inline constexpr int dates_first_year = 1950, dates_last_year = 2049;

// Days since 1970-01-01 (proleptic Gregorian) and back.
long days_from_civil(Date date);
Date civil_from_days(long days);
// 0 = monday … 6 = sunday
int weekday(Date date);
bool is_valid_date(Date date);

std::string iso_date(Date date); // "2026-11-29"

int date_format_count();
// The date written in format `format` (0 <= format < date_format_count()), lowercase, e.g.
// "sunday, 29 nov. 2026". Throws std::invalid_argument for a bad format or an invalid date.
std::string format_date(Date date, int format);

// A date of the years above, uniformly, written in a uniformly chosen format, and its ISO form.
Pair draw_date(core::Rng &rng);

} // namespace apg::tasks
