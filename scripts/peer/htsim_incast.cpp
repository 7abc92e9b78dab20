// cnsim's driver for an N-to-1 incast on htsim's fat tree with PFC (scripts/peer_fattree.py builds it
// against an htsim checkout the user points it at; nothing of htsim is copied here). Written against
// htsim's public classes: FatTreeTopology with LOSSLESS_INPUT queues (per-ingress PFC: an input queue
// pauses its upstream above a high threshold and resumes below a low one), FatTreeSwitch's ECMP FIB,
// RoceSrc / RoceSink (RoCE: paced at the link rate, no congestion control), EventList.
//
//   htsim_incast K DURATION_US RATE_GBPS LINK_DELAY_NS PACKET_B QUEUE_PKTS PFC_HIGH_PKTS PFC_LOW_PKTS
//                PACE_MBPS DST SRC...
//
// Each SRC host (htsim's numbering, from 0) sends to DST without end from time 0, paced at PACE_MBPS.
// A RoCE packet on the wire is its payload and a 64-B header (RocePacket::ACKSIZE): the payload is
// set to PACKET_B − 64 so that a packet is PACKET_B on the wire, and queue sizes and PFC thresholds
// are counted in PACKET_B packets. Prints one line of `key=value`: delivered data packets (bytes
// cumulatively acknowledged at the sinks ÷ the payload), the data packets the sources sent (far
// fewer than their pace offers when PFC holds them back), the events' wall time (the event loop
// alone, after the build), drops.
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>
#include "config.h"
#include "network.h"
#include "eventlist.h"
#include "roce.h"
#include "queue.h"
#include "queue_lossless_input.h"
#include "fat_tree_switch.h"
#include "fat_tree_topology.h"

// The event loop alone, out of line so that callgrind can count it (--toggle-collect=run_events).
__attribute__((noinline)) void run_events(EventList& ev) {
    while (ev.doNextEvent()) {
    }
}

// [host queue, pipe, the ToR's end]: the first hop of a host, as the switches' FIB expects
static Route* to_tor(FatTreeTopology* top, uint32_t host) {
    Route* r = new Route();
    BaseQueue* q = top->queues_ns_nlp[host][top->HOST_POD_SWITCH(host)][0];
    r->push_back(q);
    r->push_back(top->pipes_ns_nlp[host][top->HOST_POD_SWITCH(host)][0]);
    r->push_back(q->getRemoteEndpoint());
    return r;
}

int main(int argc, char** argv) {
    const int first_src = 11;
    if (argc <= first_src) {
        std::cerr << "usage: " << argv[0] << " K DURATION_US RATE_GBPS LINK_DELAY_NS PACKET_B QUEUE_PKTS"
                  << " PFC_HIGH_PKTS PFC_LOW_PKTS PACE_MBPS DST SRC...\n";
        return 2;
    }
    uint32_t k = std::atoi(argv[1]);
    double duration_us = std::atof(argv[2]);
    linkspeed_bps rate = speedFromGbps(std::atof(argv[3]));
    double delay_ns = std::atof(argv[4]);
    uint64_t packet_b = std::atoi(argv[5]);
    if (packet_b <= (uint64_t)RocePacket::ACKSIZE) {
        std::cerr << "PACKET_B " << argv[5] << ": not more than RoCE's header\n";
        return 2;
    }
    Packet::set_packet_size(packet_b - RocePacket::ACKSIZE);
    mem_b queue = packet_b * std::atoi(argv[6]);
    LosslessInputQueue::_high_threshold = packet_b * std::atoi(argv[7]);
    LosslessInputQueue::_low_threshold = packet_b * std::atoi(argv[8]);
    linkspeed_bps pace = speedFromMbps(std::atof(argv[9]));
    uint32_t dst = std::atoi(argv[10]);

    EventList eventlist;
    eventlist.setEndtime(timeFromUs(duration_us));
    FatTreeSwitch::set_strategy(FatTreeSwitch::ECMP);
    uint32_t hosts = k * k * k / 4;
    auto* top = new FatTreeTopology(hosts, rate, queue, nullptr, &eventlist, nullptr,
                                    LOSSLESS_INPUT, timeFromNs(delay_ns), 0, FAIR_PRIO);
    std::vector<RoceSink*> sinks;
    std::vector<RoceSrc*> srcs;
    for (int i = first_src; i < argc; i++) {
        uint32_t src = std::atoi(argv[i]);
        if (src >= hosts || src == dst) {
            std::cerr << "source " << argv[i] << ": not a host other than the destination\n";
            return 2;
        }
        auto* roce = new RoceSrc(nullptr, nullptr, eventlist, pace);
        roce->set_dst(dst);
        auto* sink = new RoceSink();
        sink->set_src(src);
        static_cast<HostQueue*>(top->queues_ns_nlp[src][top->HOST_POD_SWITCH(src)][0])->addHostSender(roce);
        roce->connect(to_tor(top, src), to_tor(top, dst), *sink, 0);
        top->switches_lp[top->HOST_POD_SWITCH(src)]->addHostPort(src, roce->flow_id(), roce);
        top->switches_lp[top->HOST_POD_SWITCH(dst)]->addHostPort(dst, roce->flow_id(), sink);
        sinks.push_back(sink);
        srcs.push_back(roce);
    }
    auto t0 = std::chrono::steady_clock::now();
    run_events(eventlist);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t bytes = 0;
    for (RoceSink* s : sinks) bytes += s->cumulative_ack();
    uint64_t sent = 0;
    for (RoceSrc* s : srcs) sent += s->_packets_sent;
    uint64_t drops = 0;
    auto count = [&](std::vector<std::vector<std::vector<BaseQueue*>>>& qs) {
        for (auto& a : qs)
            for (auto& b : a)
                for (BaseQueue* q : b)
                    if (q) drops += static_cast<Queue*>(q)->num_drops();
    };
    count(top->queues_nc_nup); count(top->queues_nup_nlp); count(top->queues_nlp_ns);
    count(top->queues_nup_nc); count(top->queues_nlp_nup);
    std::printf("htsim k=%u senders=%d sim_s=%.6f wall_s=%.6f delivered=%llu sent=%llu drops=%llu\n", k,
                argc - first_src, duration_us / 1e6, wall, (unsigned long long)(bytes / Packet::data_packet_size()),
                (unsigned long long)sent, (unsigned long long)drops);
    return 0;
}
