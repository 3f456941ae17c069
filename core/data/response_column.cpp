#include "core/data/response_column.h"

#include <stdexcept>

#include "core/io/number_format.h"

namespace core {

void ResponseColumn::refuse(double value, const std::string &where, const std::string &why) const
{
    throw std::runtime_error(m_path + ": " + where + ": the response " + formatRoundTrip(value) + " cannot be modelled by "
                             + m_model + ": " + why);
}

} // namespace core
