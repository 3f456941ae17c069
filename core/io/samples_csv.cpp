#include "core/io/samples_csv.h"

#include <stdexcept>
#include <string>

#include "core/io/atomic_file.h"

namespace core {

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
        if (withLp)
            out << "lp__,";
        out << "accept_stat__,batch_size__,full_scan_points__,full_data_fallback__";
        for (Eigen::Index k = 0; k < chain.samples.cols(); ++k)
            out << ",theta." << (k + 1);
        out << '\n';
        for (std::int64_t t = firstRow; t < chain.completed; ++t) {
            const auto row = static_cast<std::size_t>(t);
            if (withLp)
                out << formatRoundTrip(logPosterior[row]) << ',';
            out << int(chain.accepted[row]) << ',' << chain.batchSize[row] << ',' << chain.fullScanPoints[row]
                << ',' << int(chain.fullDataFallback[row]);
            for (Eigen::Index k = 0; k < chain.samples.cols(); ++k)
                out << ',' << formatRoundTrip(chain.samples(t, k));
            out << '\n';
        }
    });
}

} // namespace core
