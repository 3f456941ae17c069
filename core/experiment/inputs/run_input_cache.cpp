#include "core/experiment/inputs/run_input_cache.h"

#include <algorithm>
#include <stdexcept>


namespace core {

std::shared_ptr<const PreparedData> prepareData(const RunConfig &config, const std::function<void(double)> &progress,
                                                std::stop_token stop)
{
    auto prepared = std::make_shared<PreparedData>();
    prepared->dataset = makeDataset(config, false, progress, stop);
    if (prepared->dataset.mixturePoints)
        prepared->references = std::make_shared<PosteriorReferences>(*prepared->dataset.mixturePoints);
    if (prepared->dataset.model->capabilities().has(ModelCapability::LaplaceFit))
        prepared->laplaceFits = std::make_shared<LaplaceFits>(prepared->dataset.model);
    return prepared;
}

RunInputCache::RunInputCache(std::size_t capacity) : m_capacity(capacity)
{
    if (capacity < 1)
        throw std::invalid_argument("RunInputCache capacity must be at least 1; got 0");
}

std::shared_ptr<const PreparedData> RunInputCache::data(const RunConfig &config,
                                                        const std::function<void(double)> &progress,
                                                        std::stop_token stop)
{
    DataSettings key = dataSettings(config);
    std::shared_ptr<Entry> entry;
    {
        const std::lock_guard lock(m_mutex);
        const auto found = std::find_if(m_entries.begin(), m_entries.end(),
                                        [&](const std::shared_ptr<Entry> &e) { return e->key == key; });
        if (found != m_entries.end()) {
            m_entries.splice(m_entries.begin(), m_entries, found);
        } else {
            auto created = std::make_shared<Entry>();
            created->key = std::move(key);
            m_entries.push_front(std::move(created));
            if (m_entries.size() > m_capacity)
                m_entries.pop_back(); // a run still building or using it holds its own reference
        }
        entry = m_entries.front();
    }
    // Built outside the cache's lock, so that runs on other data are not held up by this one.
    const std::lock_guard build(entry->build);
    if (!entry->prepared)
        entry->prepared = prepareData(config, progress, stop);
    return entry->prepared;
}

} // namespace core
