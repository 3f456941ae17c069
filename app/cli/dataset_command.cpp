// `mh-explorer-cli dataset`: export generated data so it can be checked elsewhere.
#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/run_options.h"
#include "core/data/gaussian_mixture_data.h"
#include "core/io/atomic_file.h"

namespace cli {

int datasetCommand(int argc, char **argv)
{
    const Arguments args(argc, argv, 2, {"dataset", "seed", "n-data", "out"});
    const std::string dataset = args.text("dataset", "gmm");
    if (dataset != "gmm")
        throw UsageError("--dataset must be gmm; got '" + dataset + "'");
    if (!args.has("out"))
        throw UsageError("--out is required (a CSV path)");
    core::GaussianMixtureSpec spec;
    core::RunConfig seeded; // the table's seed reader: whole, unsigned, named errors
    readSetting(args, *core::findSettingByKey("seed"), seeded);
    spec.seed = seeded.seed;
    spec.size = args.integer("n-data", spec.size);
    if (spec.size < 1 || spec.size > 2'147'483'647)
        throw UsageError("--n-data must be in [1, 2147483647]; got " + std::to_string(spec.size));
    const std::string outPath = args.text("out", "");
    requireWritable("out", outPath);
    const Eigen::VectorXd x = core::generateGaussianMixture(spec);
    core::writeFileAtomically(outPath, [&](std::ostream &out) {
        out << "# dataset = gmm\n# seed = " << spec.seed << "\n# n_data = " << spec.size
            << "\n# model = x ~ 0.5 N(theta1, 2) + 0.5 N(theta1 + theta2, 2), theta = (0, 1)\nx\n";
        for (Eigen::Index i = 0; i < x.size(); ++i)
            out << core::formatRoundTrip(x[i]) << '\n';
    });
    std::printf("wrote %lld points to %s (mean %.6f, variance %.6f)\n", static_cast<long long>(x.size()),
                outPath.c_str(), x.mean(), (x.array() - x.mean()).square().sum() / std::max<double>(1.0, x.size() - 1.0));
    return 0;
}

} // namespace cli
