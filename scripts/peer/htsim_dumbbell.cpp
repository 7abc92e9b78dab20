// cnsim's driver for htsim on cnsim's benchmark dumbbell (crates/cnsim-engine/src/bench.rs;
// scripts/peer_fattree.py builds it against an htsim checkout the user points it at; nothing of
// htsim is copied here). Written against htsim's public classes: CbrSrc / CbrSink (constant bit
// rate, no acknowledgements), Queue (drop-tail FIFO serving at its link's rate), Pipe, EventList.
//
//   htsim_dumbbell N DURATION_US RATE_GBPS LINK_DELAY_NS ACCESS_QUEUE_PKTS BOTTLENECK_QUEUE_PKTS
//                  TOTAL_GBPS STAGGER_US
//
// N sources, each offering TOTAL_GBPS / N in 1 500-B packets (CbrSrc's fixed size), source i
// starting at i · STAGGER_US / N; each behind its own access link (a queue of ACCESS_QUEUE_PKTS
// packets at RATE_GBPS, then LINK_DELAY_NS of propagation) to one bottleneck (a queue of
// BOTTLENECK_QUEUE_PKTS packets at RATE_GBPS, then LINK_DELAY_NS) and a sink per source. Prints one
// line of `key=value`: delivered packets, the events' wall time (the event loop alone, after the
// build), drops.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>
#include "config.h"
#include "network.h"
#include "eventlist.h"
#include "cbr.h"
#include "queue.h"
#include "pipe.h"
#include "htsim_common.h"

int main(int argc, char** argv) {
    if (argc != 9) {
        std::cerr << "usage: htsim_dumbbell N DURATION_US RATE_GBPS LINK_DELAY_NS ACCESS_QUEUE_PKTS"
                  << " BOTTLENECK_QUEUE_PKTS TOTAL_GBPS STAGGER_US\n";
        return 2;
    }
    int n = std::atoi(argv[1]);
    if (n < 1) {
        std::cerr << "N " << argv[1] << ": not a positive count\n";
        return 2;
    }
    double duration_us = std::atof(argv[2]);
    linkspeed_bps rate = speedFromGbps(std::atof(argv[3]));
    simtime_picosec delay = timeFromNs(std::atof(argv[4]));
    const mem_b packet = 1500;  // CbrSrc's _mss
    mem_b access = packet * std::atoi(argv[5]);
    mem_b bottleneck = packet * std::atoi(argv[6]);
    linkspeed_bps each = speedFromGbps(std::atof(argv[7]) / n);
    double stagger_us = std::atof(argv[8]);

    EventList eventlist;
    eventlist.setEndtime(timeFromUs(duration_us));
    Queue shared(rate, bottleneck, eventlist, nullptr);
    Pipe wire(delay, eventlist);
    std::vector<Queue*> queues;
    std::vector<CbrSink*> sinks;
    for (int i = 0; i < n; i++) {
        auto* q = new Queue(rate, access, eventlist, nullptr);
        auto* p = new Pipe(delay, eventlist);
        auto* sink = new CbrSink();
        auto* src = new CbrSrc(eventlist, each);
        auto* route = new route_t();
        route->push_back(q);
        route->push_back(p);
        route->push_back(&shared);
        route->push_back(&wire);
        route->push_back(sink);
        src->connect(*route, *sink, timeFromUs(stagger_us * i / n));
        queues.push_back(q);
        sinks.push_back(sink);
    }
    auto t0 = std::chrono::steady_clock::now();
    run_events(eventlist);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t delivered = 0, drops = shared.num_drops();
    for (CbrSink* s : sinks) delivered += s->_received;
    for (Queue* q : queues) drops += q->num_drops();
    std::printf("htsim n=%d sim_s=%.6f wall_s=%.6f delivered=%llu drops=%llu\n", n, duration_us / 1e6, wall,
                (unsigned long long)delivered, (unsigned long long)drops);
    return 0;
}
