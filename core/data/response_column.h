#pragma once
/// The numeric response of a regression read from a user's data file (CSV, LIBSVM, .npy; see
/// regression_file.h): one double per row, each checked by the model's rule as it is read (a
/// Poisson count must be a whole number ≥ 0), so that a refusal names the line, row or element
/// of the file that holds the bad value, not a row number after blank lines and a header were
/// skipped. Responses are kept in double: a count of 16,777,217 or a price to the cent is not
/// rounded to a float as the features are.
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace core {

class ResponseColumn {
public:
    /// Why `y` is not a response the model takes ("a count must be a non-negative integer"), or
    /// nullopt. An empty rule takes every finite number.
    using Rule = std::function<std::optional<std::string>(double y)>;

    /// `path` starts every message; `model` names the model in them ("poisson").
    ResponseColumn(std::string path, std::string model, Rule rule)
        : m_path(std::move(path)), m_model(std::move(model)), m_rule(std::move(rule))
    {
    }

    /// Records the next row's response. `where()` names the record ("line 12", "row 7") and is
    /// called only for a value that is refused. Throws std::runtime_error "PATH: WHERE: the
    /// response Y …: WHY".
    template <typename Where>
    void addLazily(double value, Where where)
    {
        if (!std::isfinite(value))
            refuse(value, std::string(where()), "a response must be a finite number");
        if (m_rule)
            if (std::optional<std::string> why = m_rule(value))
                refuse(value, std::string(where()), *why);
        m_values.push_back(value);
    }
    void reserve(std::size_t rows) { m_values.reserve(rows); }
    std::size_t size() const { return m_values.size(); }
    /// The responses in row order; leaves the column empty.
    std::vector<double> take() { return std::move(m_values); }

private:
    [[noreturn]] void refuse(double value, const std::string &where, const std::string &why) const;

    std::string m_path;
    std::string m_model;
    Rule m_rule;
    std::vector<double> m_values;
};

} // namespace core
