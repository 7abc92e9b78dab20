// What cnsim's htsim drivers (scripts/peer/*.cpp) share: the event loop, timed alone; a flow's path
// by the aggregation-to-core queue it crosses; the drops at a fat tree's queues. Written against
// htsim's public classes (FatTreeTopology, Route, Queue, EventList); nothing of htsim is copied.
#pragma once
#include <string>
#include <vector>
#include "eventlist.h"
#include "queue.h"
#include "fat_tree_topology.h"

// The event loop alone, out of line so that callgrind can count it (--toggle-collect=run_events).
__attribute__((noinline, noclone)) inline void run_events(EventList& ev) {
    while (ev.doNextEvent()) {
    }
}

// The path among `paths` that crosses the queue named `queue` (htsim's "US<agg>->CS<core>(0)"; a
// route interleaves queues, pipes and, with lossless input queues, the switches' input queues), or
// nullptr.
inline const Route* path_through(const std::vector<const Route*>& paths, const std::string& queue) {
    for (const Route* p : paths)
        for (size_t i = 0; i < p->size(); i++) {
            auto* q = dynamic_cast<BaseQueue*>(p->at(i));
            if (q && q->str() == queue) return p;
        }
    return nullptr;
}

// Packets dropped at the fat tree's switch queues, and at the hosts' own with `hosts`.
inline uint64_t fat_tree_drops(FatTreeTopology* top, bool hosts) {
    uint64_t drops = 0;
    auto count = [&](std::vector<std::vector<std::vector<BaseQueue*>>>& qs) {
        for (auto& a : qs)
            for (auto& b : a)
                for (BaseQueue* q : b)
                    if (q) drops += static_cast<Queue*>(q)->num_drops();
    };
    count(top->queues_nc_nup); count(top->queues_nup_nlp); count(top->queues_nlp_ns);
    count(top->queues_nup_nc); count(top->queues_nlp_nup);
    if (hosts) count(top->queues_ns_nlp);
    return drops;
}
