#include "ui/pages/chart_page.h"

#include "core/experiment/settings/dataset_registry.h"
#include "ui/charts/chart_style.h"
#include "ui/run/sampler_worker.h"

namespace ui {

QColor channelColour(int methodIndex, int chainIndex)
{
    const QColor colour = seriesColour(methodIndex);
    switch (chainIndex % 4) {
    case 1: return colour.lighter(145);
    case 2: return colour.darker(145);
    case 3: return colour.lighter(190);
    default: return colour;
    }
}

RunLayout makeRunLayout(const RunRequest &request)
{
    RunLayout layout;
    layout.request = request;
    const core::DatasetEntry *data = core::findDataset(request.config.dataset);
    layout.exactPosterior = data && data->exactPosteriorMap;
    layout.dimension = data && data->fixedDimension == 1 ? 1 : 2;
    for (std::size_t m = 0; m < request.methods.size(); ++m)
        layout.methods.append(QString::fromStdString(request.methodLabel(m)));
    for (int channel = 0; channel < request.channelCount(); ++channel) {
        const int method = request.methodIndexOf(channel), chain = request.chainIndexOf(channel);
        layout.channels.append(request.chains > 1
                                   ? ChartPage::tr("%1 #%2").arg(layout.methods[method]).arg(chain + 1)
                                   : layout.methods[method]);
        // One method: chains in distinct hues; comparing: each method's hue, shaded per chain.
        layout.colours.append(request.methods.size() == 1 ? seriesColour(chain) : channelColour(method, chain));
        layout.burnIns.append(request.untilStopped ? 0 : request.channelConfig(channel).burnIn);
    }
    layout.dataSize = data && !data->generated ? 0 : request.config.nData;
    layout.window = request.untilStopped ? request.config.samples : 0;
    return layout;
}

} // namespace ui
