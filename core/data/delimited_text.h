#pragma once
/// The text-level rules of a user's table file (CSV and its relatives): which character
/// separates the fields, how a quoted field is read, which fields are numbers and which mark a
/// missing value. core/data/csv_dataset builds a data set on top of them.
#include <string>
#include <string_view>
#include <vector>

namespace core {

/// The field separator of a line as people save tables: ',' (most files), ';' (spreadsheets
/// in locales whose decimal mark is a comma) or a tab, whichever occurs most often outside
/// double quotes; ',' on a tie or when none occurs.
char detectDelimiter(std::string_view line);

/// "," ";" "tab" or any single character: the delimiter a user names; "auto" gives 0 (detect).
/// Throws std::invalid_argument naming the accepted values.
char parseDelimiter(const std::string &text);

/// The delimiter as people name it: "','", "';'", "tab".
std::string delimiterName(char delimiter);

/// Splits `line` into its fields at `delimiter`, as RFC 4180 reads a line: a field may be
/// enclosed in double quotes, inside which the delimiter is text and "" stands for one quote.
/// Spaces around a field (and around its quotes) are dropped. Returns false, with `fields`
/// incomplete, when a quote is never closed on this line.
bool splitDelimitedLine(std::string_view line, char delimiter, std::vector<std::string> &fields);

/// True for the ways a table marks a missing value: an empty field, NA, N/A, NaN (any case),
/// NULL, or "?" (the UCI repository's mark).
bool isMissingField(std::string_view field);

enum class NumberStatus { Ok, NotANumber, OutOfRange };

/// Reads a whole field as a double ("+4", "1e-3"; "1e-400" underflows to 0). OutOfRange for a
/// magnitude beyond double's range, NotANumber when any character is left over.
NumberStatus parseFieldNumber(std::string_view field, double &value);

/// True for the spaces that may surround a field: space, tab, CR, VT and FF (not the line end).
bool isBlankChar(char c);

/// ASCII comparison without regard to case ("Outcome" and "outcome", "NA" and "na").
bool equalsIgnoreCase(std::string_view a, std::string_view b);

/// `text` in single quotes, for messages.
std::string inQuotes(std::string_view text);

} // namespace core
