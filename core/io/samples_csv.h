#pragma once
/// Samples files in a CmdStan-like CSV that pandas (read_csv(comment='#')) and ArviZ read:
///   # key = value           run settings, one per line (booleans as 0/1)
///   lp__,accept_stat__,batch_size__,full_scan_points__,full_data_fallback__,theta.1,theta.2,...
///   one row per iteration, numbers in round-trip precision.
/// Column names ending in "__" are sampler statistics; theta.k are the parameters.
#include <string>
#include <utility>
#include <vector>

#include "core/chain/chain_runner.h"

namespace core {

using CsvMetadata = std::vector<std::pair<std::string, std::string>>;

/// The header row (without its line end): lp__ when `withLp`, the sampler columns, then
/// theta.1 … theta.`dimension`.
std::string samplesColumnNames(Eigen::Index dimension, bool withLp);

/// Row `t` of `chain` from accept_stat__ on (lp__ is the caller's), numbers in round-trip form,
/// appended to `out` with its line end.
void appendSamplesRow(std::string &out, const ChainResult &chain, std::int64_t t);

/// Writes the completed rows of `chain` from `firstRow` on (rows before it, such as a burn-in's,
/// are left out) atomically. `logPosterior` (one value per completed row, the left-out ones
/// included) fills lp__; when it is empty the lp__ column is left out. Throws
/// std::invalid_argument for a firstRow outside [0, completed], std::runtime_error naming the
/// path on any failure; no partial file remains.
void writeSamplesCsv(const std::string &path, const CsvMetadata &metadata, const ChainResult &chain,
                     const std::vector<double> &logPosterior = {}, std::int64_t firstRow = 0);

} // namespace core
