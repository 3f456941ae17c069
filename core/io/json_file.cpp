#include "core/io/json_file.h"

#include "core/io/atomic_file.h"

namespace core {

void writeJsonFile(const std::string &path, const nlohmann::ordered_json &json)
{
    const std::string text = json.dump(2);
    writeFileAtomically(path, [&text](std::ostream &out) { out << text << '\n'; });
}

} // namespace core
