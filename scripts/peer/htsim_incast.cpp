// cnsim's driver for an N-to-1 incast on htsim's fat tree with PFC (scripts/peer_fattree.py builds it
// against an htsim checkout the user points it at; nothing of htsim is copied here). Written against
// htsim's public classes: FatTreeTopology with LOSSLESS_INPUT queues (per-ingress PFC: an input queue
// pauses its upstream above a high threshold and resumes below a low one), FatTreeSwitch's ECMP FIB,
// RoceSrc / RoceSink (RoCE: paced, no congestion control) or HPCCSrc / HPCCSink (HPCC: a window from
// the switches' in-band telemetry), EventList.
//
//   htsim_incast roce|hpcc K DURATION_US RATE_GBPS LINK_DELAY_NS PACKET_B QUEUE_PKTS PFC_HIGH_PKTS PFC_LOW_PKTS
//                PACE_MBPS DST SRC...
//
// Each SRC host (htsim's numbering, from 0) sends to DST without end from time 0, paced at PACE_MBPS
// (HPCC: starting at that rate). A RoCE or HPCC packet on the wire is its payload and a 64-B header (RocePacket::ACKSIZE): the payload is
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
#include "hpcc.h"
#include "queue.h"
#include "queue_lossless_input.h"
#include "fat_tree_switch.h"
#include "fat_tree_topology.h"
#include "htsim_common.h"

// [host queue, pipe, the ToR's end]: the first hop of a host, as the switches' FIB expects
static Route* to_tor(FatTreeTopology* top, uint32_t host) {
    Route* r = new Route();
    BaseQueue* q = top->queues_ns_nlp[host][top->HOST_POD_SWITCH(host)][0];
    r->push_back(q);
    r->push_back(top->pipes_ns_nlp[host][top->HOST_POD_SWITCH(host)][0]);
    r->push_back(q->getRemoteEndpoint());
    return r;
}

// One flow from src to dst; its source and sink are kept for the counts.
template <class Src, class Sink>
void add_flow(FatTreeTopology* top, EventList& ev, linkspeed_bps pace, uint32_t src, uint32_t dst,
              std::vector<Src*>& srcs, std::vector<Sink*>& sinks) {
    auto* source = new Src(nullptr, nullptr, ev, pace);
    source->set_dst(dst);
    auto* sink = new Sink();
    sink->set_src(src);
    static_cast<HostQueue*>(top->queues_ns_nlp[src][top->HOST_POD_SWITCH(src)][0])->addHostSender(source);
    source->connect(to_tor(top, src), to_tor(top, dst), *sink, 0);
    top->switches_lp[top->HOST_POD_SWITCH(src)]->addHostPort(src, source->flow_id(), source);
    top->switches_lp[top->HOST_POD_SWITCH(dst)]->addHostPort(dst, source->flow_id(), sink);
    srcs.push_back(source);
    sinks.push_back(sink);
}

// Bytes cumulatively acknowledged at the sinks, and data packets sent by the sources.
template <class Src, class Sink>
void count(const std::vector<Src*>& srcs, const std::vector<Sink*>& sinks, uint64_t& bytes, uint64_t& sent) {
    for (Sink* s : sinks) bytes += s->cumulative_ack();
    for (Src* s : srcs) sent += s->_packets_sent;
}

int main(int argc, char** argv) {
    if (argc < 2 || (std::string(argv[1]) != "roce" && std::string(argv[1]) != "hpcc")) {
        std::cerr << "usage: " << argv[0] << " roce|hpcc K ...\n";
        return 2;
    }
    bool hpcc = std::string(argv[1]) == "hpcc";
    argc--;
    argv++;
    const int first_src = 11;
    if (argc <= first_src) {
        std::cerr << "usage: htsim_incast roce|hpcc K DURATION_US RATE_GBPS LINK_DELAY_NS PACKET_B QUEUE_PKTS"
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
    std::vector<RoceSrc*> roce_srcs;
    std::vector<RoceSink*> roce_sinks;
    std::vector<HPCCSrc*> hpcc_srcs;
    std::vector<HPCCSink*> hpcc_sinks;
    for (int i = first_src; i < argc; i++) {
        uint32_t src = std::atoi(argv[i]);
        if (src >= hosts || src == dst) {
            std::cerr << "source " << argv[i] << ": not a host other than the destination\n";
            return 2;
        }
        if (hpcc)
            add_flow(top, eventlist, pace, src, dst, hpcc_srcs, hpcc_sinks);
        else
            add_flow(top, eventlist, pace, src, dst, roce_srcs, roce_sinks);
    }
    auto t0 = std::chrono::steady_clock::now();
    run_events(eventlist);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t bytes = 0, sent = 0;
    count(roce_srcs, roce_sinks, bytes, sent);
    count(hpcc_srcs, hpcc_sinks, bytes, sent);
    uint64_t drops = fat_tree_drops(top, false);
    std::printf("htsim k=%u senders=%d sim_s=%.6f wall_s=%.6f delivered=%llu sent=%llu drops=%llu\n", k,
                argc - first_src, duration_us / 1e6, wall, (unsigned long long)(bytes / Packet::data_packet_size()),
                (unsigned long long)sent, (unsigned long long)drops);
    return 0;
}
