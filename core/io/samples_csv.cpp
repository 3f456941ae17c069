#include "core/io/samples_csv.h"

#include <stdexcept>
#include <string>

#include "core/io/atomic_file.h"
#include "core/io/number_format.h"

namespace core {

std::string samplesColumnNames(Eigen::Index dimension, bool withLp)
{
    std::string names = withLp ? "lp__," : "";
    names += "accept_stat__,batch_size__,full_scan_points__,full_data_fallback__";
    for (Eigen::Index k = 0; k < dimension; ++k)
        names += ",theta." + std::to_string(k + 1);
    return names;
}

void appendSamplesRow(std::string &out, const ChainResult &chain, std::int64_t t)
{
    const auto row = static_cast<std::size_t>(t);
    out += std::to_string(int(chain.accepted[row]));
    out += ',';
    out += std::to_string(chain.batchSize[row]);
    out += ',';
    out += std::to_string(chain.fullScanPoints[row]);
    out += ',';
    out += std::to_string(int(chain.fullDataFallback[row]));
    for (Eigen::Index k = 0; k < chain.samples.cols(); ++k) {
        out += ',';
        out += formatRoundTrip(chain.samples(t, k));
    }
    out += '\n';
}

void writeSamplesCsv(const std::string &path, const CsvMetadata &metadata, const ChainResult &chain,
                     const std::vector<double> &logPosterior, std::int64_t firstRow)
{
    const bool withLp = !logPosterior.empty();
    if (withLp && static_cast<std::int64_t>(logPosterior.size()) != chain.completed)
        throw std::invalid_argument("lp__ needs one value per completed iteration");
    if (firstRow < 0 || firstRow > chain.completed)
        throw std::invalid_argument("the first row written must be in [0, " + std::to_string(chain.completed)
                                    + "]; got " + std::to_string(firstRow));
    writeFileAtomically(path, [&](std::ostream &out) {
        for (const auto &[key, value] : metadata)
            out << "# " << key << " = " << value << '\n';
        out << samplesColumnNames(chain.samples.cols(), withLp) << '\n';
        std::string row;
        for (std::int64_t t = firstRow; t < chain.completed; ++t) {
            row.clear();
            if (withLp) {
                row += formatRoundTrip(logPosterior[static_cast<std::size_t>(t)]);
                row += ',';
            }
            appendSamplesRow(row, chain, t);
            out << row;
        }
    });
}

} // namespace core
