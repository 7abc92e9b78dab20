// cnsim's driver for htsim's fat tree (scripts/peer_fattree.py builds it against an htsim checkout
// the user points it at; nothing of htsim is copied here). Written against htsim's public classes:
// FatTreeTopology (three tiers, ECN queues, which mark on dequeue above a fixed 15-packet threshold),
// DCTCPSrc / TcpSrc and TcpSink, TcpRtxTimerScanner, EventList.
//
//   htsim_fattree K DURATION_US RATE_GBPS LINK_DELAY_NS QUEUE_PKTS SEED [dctcp|tcp] [PATHS]
//
// One long-lived connection per host, host h to host (h + hosts/2) mod hosts (the permutation of
// cnsim.generators.fat_tree). PATHS, a file of lines `src agg core` (htsim's numbering), gives each
// flow's aggregation and core switch (the path cnsim's ECMP chose); without it each flow takes one of
// its equal-cost paths at random (seeded). ACKs take the mirror of their flow's path. `tcp` runs
// htsim's plain TcpSrc instead of DCTCPSrc. Prints one line of `key=value`:
// delivered data packets (bytes received at the sinks ÷ 1500), the events' wall time (the event
// loop alone, after the build), drops and marks.
#include <chrono>
#include <fstream>
#include <map>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>
#include "config.h"
#include "network.h"
#include "eventlist.h"
#include "tcp.h"
#include "dctcp.h"
#include "queue.h"
#include "fat_tree_topology.h"
#include "htsim_common.h"

int main(int argc, char** argv) {
    if (argc < 7) {
        std::cerr << "usage: " << argv[0] << " K DURATION_US RATE_GBPS LINK_DELAY_NS QUEUE_PKTS SEED [dctcp|tcp] [PATHS]\n";
        return 2;
    }
    uint32_t k = std::atoi(argv[1]);
    double duration_us = std::atof(argv[2]);
    double rate_gbps = std::atof(argv[3]);
    double delay_ns = std::atof(argv[4]);
    double queue_pkts = std::atof(argv[5]);
    unsigned seed = std::atoi(argv[6]);
    bool dctcp = !(argc > 7 && std::string(argv[7]) == "tcp");
    // src -> the name of its aggregation-to-core queue in htsim ("US<agg>->CS<core>(0)")
    std::map<uint32_t, std::string> chosen;
    if (argc > 8) {
        std::ifstream f(argv[8]);
        if (!f) {
            std::cerr << argv[8] << ": cannot read\n";
            return 2;
        }
        uint32_t src, agg, core;
        while (f >> src >> agg >> core)
            chosen[src] = "US" + std::to_string(agg) + "->CS" + std::to_string(core) + "(0)";
    }

    EventList eventlist;
    eventlist.setEndtime(timeFromUs(duration_us));
    srand(seed);
    uint32_t hosts = k * k * k / 4;
    auto* top = new FatTreeTopology(hosts, speedFromGbps(rate_gbps), memFromPkt(queue_pkts), nullptr, &eventlist,
                                    nullptr, ECN, timeFromNs(delay_ns), 0);
    TcpRtxTimerScanner scanner(timeFromMs(1), eventlist);
    std::vector<TcpSink*> sinks;
    for (uint32_t src = 0; src < hosts; src++) {
        uint32_t dst = (src + hosts / 2) % hosts;
        std::vector<const Route*>* paths = top->get_bidir_paths(src, dst, true);
        const Route* path = paths->at(rand() % paths->size());
        if (chosen.count(src)) {
            path = path_through(*paths, chosen[src]);
            if (!path) {
                std::cerr << "no path through " << chosen[src] << " from host " << src << "\n";
                return 1;
            }
        }
        TcpSrc* tcp = dctcp ? new DCTCPSrc(nullptr, nullptr, eventlist) : new TcpSrc(nullptr, nullptr, eventlist);
        TcpSink* sink = new TcpSink();
        scanner.registerTcp(*tcp);
        Route* out = new Route(*path);
        out->push_back(sink);
        Route* back = new Route(*path->reverse());
        back->push_back(tcp);
        tcp->connect(*out, *back, *sink, 0);
        sinks.push_back(sink);
    }
    auto t0 = std::chrono::steady_clock::now();
    run_events(eventlist);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t bytes = 0;
    for (TcpSink* s : sinks) bytes += s->_packets;
    uint64_t drops = fat_tree_drops(top, true);
    std::printf("htsim k=%u hosts=%u sim_s=%.6f wall_s=%.6f delivered=%llu drops=%llu\n", k, hosts,
                duration_us / 1e6, wall, (unsigned long long)(bytes / Packet::data_packet_size()),
                (unsigned long long)drops);
    return 0;
}
