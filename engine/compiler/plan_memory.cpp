// SPDX-License-Identifier: MIT
#include "compiler/plan_memory.h"

#include <set>

namespace kiln::compiler {

MemoryPlan planMemory(const LoopProgram& p, const Schedule& schedule,
                      const std::vector<BufferView>& outputs) {
    MemoryPlan plan;
    size_t n = p.buffers.size();
    plan.storageOf.resize(n);
    std::vector<int> written(n, -1), lastRead(n, -1);
    for (size_t k = 0; k < schedule.kernels.size(); ++k)
        for (const KernelStage& s : schedule.kernels[k].stages) {
            const LoopNode& node = p.nodes[static_cast<size_t>(s.node)];
            for (int32_t r : node.reads())
                lastRead[static_cast<size_t>(r)] = static_cast<int>(k);
            written[static_cast<size_t>(node.output)] = static_cast<int>(k);
        }
    std::set<int32_t> pinned;
    for (const BufferView& o : outputs)
        pinned.insert(o.buffer);
    auto bytes = [&](int32_t id) {
        const Buffer& b = p.buffer(id);
        return product(b.sizes) * constant(tensor::itemSize(b.dtype));
    };
    // Storage owners that are free again, with the kernel after which they are free.
    std::vector<std::pair<int32_t, int>> freeList;
    std::vector<int32_t> owner(n);
    for (size_t i = 0; i < n; ++i)
        owner[i] = plan.storageOf[i] = static_cast<int32_t>(i);
    for (size_t k = 0; k < schedule.kernels.size(); ++k) {
        // Only fused kernels write into planned storage: externs and fallbacks return their own.
        bool fused = schedule.kernels[k].compiled();
        for (const KernelStage& s : schedule.kernels[k].stages) {
            int32_t out = p.nodes[static_cast<size_t>(s.node)].output;
            if (!fused || pinned.count(out) || p.buffer(out).origin != Buffer::Origin::Computed)
                continue;
            for (auto it = freeList.begin(); it != freeList.end(); ++it) {
                if (it->second >= static_cast<int>(k) || !equal(bytes(it->first), bytes(out)))
                    continue;
                plan.storageOf[static_cast<size_t>(out)] = it->first;
                owner[static_cast<size_t>(out)] = it->first;
                freeList.erase(it);
                ++plan.reused;
                break;
            }
        }
        // Buffers whose last reader is this kernel become free for the kernels after it.
        for (size_t b = 0; b < n; ++b) {
            if (lastRead[b] != static_cast<int>(k) || pinned.count(static_cast<int32_t>(b)))
                continue;
            if (p.buffers[b].origin != Buffer::Origin::Computed || written[b] < 0) continue;
            if (!schedule.kernels[static_cast<size_t>(written[b])].compiled()) continue;
            freeList.emplace_back(owner[b], static_cast<int>(k));
        }
    }
    return plan;
}

std::string toString(const MemoryPlan& plan, const LoopProgram& p) {
    std::string text;
    for (size_t i = 0; i < plan.storageOf.size(); ++i)
        if (plan.storageOf[i] != static_cast<int32_t>(i))
            text += p.buffers[i].name + " reuses the storage of " +
                    p.buffer(plan.storageOf[i]).name + "\n";
    return text;
}

} // namespace kiln::compiler
