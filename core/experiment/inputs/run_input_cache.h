#pragma once
/// The inputs of a run that do not depend on its kernel, and a cache that lets a series of runs
/// on the same data (the points of a sweep over σ, λ, the step, m, T, …) share them instead of
/// making them again: the generated or loaded data set with its model, and for the Gaussian
/// mixture the binned exact posteriors (about a second each at the default grid), one per
/// temperature, and for logistic regression the Laplace fits (laplace_fits.h), one per
/// temperature. Sharing changes no figure: the data depend only on the data settings
/// (DataSettings), and a reference or a fit only on the data and the temperature.
///
/// Everything shared is read-only (the data set and model are const; PosteriorReferences builds
/// each temperature once under its own lock and hands out const posteriors), so runs on
/// several threads may share one entry.
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <stop_token>

#include "core/experiment/inputs/datasets.h"
#include "core/experiment/inputs/laplace_fits.h"
#include "core/experiment/inputs/posterior_references.h"

namespace core {

/// What every run on the same data starts from.
struct PreparedData {
    DatasetInstance dataset;
    /// The mixture's exact posteriors, built per temperature when first asked for (null for
    /// the other datasets). Bound to dataset's data, which this object keeps alive.
    std::shared_ptr<PosteriorReferences> references;
    /// The logistic model's Laplace fits, made per temperature when first asked for (null for
    /// the other models). Keeps the model alive.
    std::shared_ptr<LaplaceFits> laplaceFits;
};

/// The data of `config` (makeDataset without a posterior) and, for the mixture, its (as yet
/// empty) references. Throws as makeDataset does.
std::shared_ptr<const PreparedData> prepareData(const RunConfig &config, const std::function<void(double)> &progress = {},
                                                std::stop_token stop = {});

/// A caller-owned cache of PreparedData keyed by DataSettings, for the runs of one sweep or
/// session; pass it to runRequest (run_service.h). Thread-safe: concurrent runs asking for the
/// same data wait for one build rather than each making it.
class RunInputCache {
public:
    /// Keeps at most `capacity` (≥ 1) data sets alive between runs, the most recently used
    /// ones: a sweep over the data's size would otherwise hold every size at once. Runs still
    /// using an evicted entry keep it until they finish.
    explicit RunInputCache(std::size_t capacity = 1);

    /// The prepared data of `config`: the cached entry when one has equal DataSettings, else
    /// made now by prepareData (reporting `progress`, honouring `stop`) and cached. A build
    /// that throws caches nothing.
    std::shared_ptr<const PreparedData> data(const RunConfig &config, const std::function<void(double)> &progress = {},
                                             std::stop_token stop = {});

private:
    struct Entry {
        DataSettings key;
        std::mutex build; // held while this entry's data are made
        std::shared_ptr<const PreparedData> prepared;
    };

    std::size_t m_capacity;
    std::mutex m_mutex;                          // guards m_entries, not the builds
    std::list<std::shared_ptr<Entry>> m_entries; // most recently used first
};

} // namespace core
