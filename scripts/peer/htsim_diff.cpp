// cnsim's driver for the differential comparison with htsim (scripts/htsim_diff.py builds it against
// an htsim checkout the user points it at; nothing of htsim is copied here). Written against htsim's
// public classes: FatTreeTopology, HPCCSrc / HPCCSink (LOSSLESS_INPUT queues: per-ingress PFC, and
// in-band telemetry pushed by LosslessOutputQueue), SwiftSrc / SwiftSink (FairScheduler at the hosts),
// DCTCPSrc / TcpSink (ECN queues marking above a fixed 15 packets), EventList.
//
//   htsim_diff hpcc|swift|dctcp K DURATION_US RATE_GBPS LINK_DELAY_NS PACKET_B QUEUE_PKTS FLOW_PKTS
//              SAMPLE_US BOTTLENECK_HOST FLOWS [KEY=VALUE...]
//
// FLOWS is a file of lines `src dst agg core` (htsim's host numbering from 0): one finite flow of
// FLOW_PKTS full packets from src to dst, started at time 0, on the source route through aggregation
// switch agg and core core (cnsim's ECMP choice, renamed by the script).
// A full packet is PACKET_B on the wire: HPCC's payload is PACKET_B − 64 (HPCCPacket::ACKSIZE is its
// header), Swift's and DCTCP's packets carry PACKET_B and count all of it as data (htsim models no
// headers for them). KEY=VALUE: hpcc: t_us (HPCCSrc::_T), eta, max_stage, wai_b, pfc_high_pkts,
// pfc_low_pkts; swift: init_cwnd_pkts, hdiv; dctcp: nothing (TcpSrc's own start).
//
// Every SAMPLE_US the queued bytes of the ToR's port to BOTTLENECK_HOST are sampled, and each flow's
// bytes cumulatively acknowledged by its sink: a flow's FCT is the first sample at which its sink
// has all of it (an upper bound, at most SAMPLE_US late). htsim's own logging to stdout is silenced.
// Prints `htsim proto=… flows=… sim_s=… drops=…`, one `flow src=… dst=… bytes=… fct_us=…` line per
// flow (fct_us=-1 when unfinished) and one `queue_bytes v v …` line of the samples.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include "config.h"
#include "network.h"
#include "eventlist.h"
#include "hpcc.h"
#include "swift.h"
#include "tcp.h"
#include "dctcp.h"
#include "queue.h"
#include "queue_lossless_input.h"
#include "fat_tree_switch.h"
#include "fat_tree_topology.h"
#include "htsim_common.h"

struct Flow {
    uint32_t src, dst, agg, core;
    HPCCSink* hpcc = nullptr;
    SwiftSink* swift = nullptr;
    TcpSink* tcp = nullptr;
    double fct_us = -1;
    uint64_t acked() const {
        if (hpcc) return hpcc->cumulative_ack();
        if (swift) return swift->cumulative_ack();
        return tcp->_cumulative_ack;
    }
};

// Samples the bottleneck queue and the flows' progress every `period`.
class Sampler : public EventSource {
public:
    Sampler(EventList& ev, simtime_picosec period, BaseQueue* q, std::vector<Flow>& flows, uint64_t bytes)
        : EventSource(ev, "sampler"), _period(period), _q(q), _flows(flows), _bytes(bytes) {
        ev.sourceIsPending(*this, 0);
    }
    void doNextEvent() override {
        _samples.push_back(_q->queuesize());
        for (Flow& f : _flows)
            if (f.fct_us < 0 && f.acked() + 1 >= _bytes) f.fct_us = timeAsUs(eventlist().now());
        eventlist().sourceIsPendingRel(*this, _period);
    }
    std::vector<mem_b> _samples;

private:
    simtime_picosec _period;
    BaseQueue* _q;
    std::vector<Flow>& _flows;
    uint64_t _bytes;
};

// The path from f.src to f.dst through f.agg and f.core; intra-pod, its only one.
static const Route* pinned(FatTreeTopology* top, const Flow& f) {
    std::vector<const Route*>* paths = top->get_bidir_paths(f.src, f.dst, true);
    std::string want = "US" + std::to_string(f.agg) + "->CS" + std::to_string(f.core) + "(0)";
    const Route* p = path_through(*paths, want);
    return p ? p : paths->size() == 1 ? paths->at(0) : nullptr;
}

int main(int argc, char** argv) {
    if (argc < 12) {
        std::cerr << "usage: htsim_diff hpcc|swift|dctcp K DURATION_US RATE_GBPS LINK_DELAY_NS PACKET_B QUEUE_PKTS"
                  << " FLOW_PKTS SAMPLE_US BOTTLENECK_HOST FLOWS [KEY=VALUE...]\n";
        return 2;
    }
    std::string proto = argv[1];
    if (proto != "hpcc" && proto != "swift" && proto != "dctcp") {
        std::cerr << "protocol " << proto << ": not hpcc, swift or dctcp\n";
        return 2;
    }
    uint32_t k = std::atoi(argv[2]);
    double duration_us = std::atof(argv[3]);
    linkspeed_bps rate = speedFromGbps(std::atof(argv[4]));
    simtime_picosec delay = timeFromNs(std::atof(argv[5]));
    uint64_t packet_b = std::atoi(argv[6]);
    mem_b queue = packet_b * std::atoi(argv[7]);
    uint64_t flow_pkts = std::atoi(argv[8]);
    simtime_picosec sample = timeFromUs(std::atof(argv[9]));
    uint32_t bottleneck = std::atoi(argv[10]);
    std::map<std::string, double> kv;
    for (int i = 12; i < argc; i++) {
        std::string a = argv[i];
        size_t eq = a.find('=');
        if (eq == std::string::npos) {
            std::cerr << a << ": not KEY=VALUE\n";
            return 2;
        }
        kv[a.substr(0, eq)] = std::atof(a.substr(eq + 1).c_str());
    }
    auto need = [&](const char* key) {
        if (!kv.count(key)) {
            std::cerr << proto << " needs " << key << "=\n";
            std::exit(2);
        }
        return kv[key];
    };
    std::vector<Flow> flows;
    {
        std::ifstream in(argv[11]);
        if (!in) {
            std::cerr << argv[11] << ": cannot read\n";
            return 2;
        }
        Flow f;
        while (in >> f.src >> f.dst >> f.agg >> f.core) flows.push_back(f);
    }

    // htsim's sources and queues write to stdout at every ACK (HPCC) or state change: silenced.
    std::streambuf* out = std::cout.rdbuf(nullptr);
    EventList eventlist;
    eventlist.setEndtime(timeFromUs(duration_us));
    uint32_t hosts = k * k * k / 4;
    uint64_t payload = packet_b;
    FatTreeTopology* top;
    if (proto == "hpcc") {
        payload = packet_b - HPCCPacket::ACKSIZE;
        Packet::set_packet_size(payload);
        LosslessInputQueue::_high_threshold = packet_b * need("pfc_high_pkts");
        LosslessInputQueue::_low_threshold = packet_b * need("pfc_low_pkts");
        HPCCSrc::_T = timeFromUs(need("t_us"));
        HPCCSrc::_eta = need("eta");
        HPCCSrc::_max_stages = need("max_stage");
        top = new FatTreeTopology(hosts, rate, queue, nullptr, &eventlist, nullptr, LOSSLESS_INPUT, delay, 0, FAIR_PRIO);
    } else {
        Packet::set_packet_size(packet_b);
        top = new FatTreeTopology(hosts, rate, queue, nullptr, &eventlist, nullptr, ECN, delay, 0,
                                  proto == "swift" ? SWIFT_SCHEDULER : FAIR_PRIO);
    }
    uint64_t bytes = flow_pkts * payload;
    SwiftRtxTimerScanner swift_scanner(timeFromMs(1), eventlist);
    TcpRtxTimerScanner tcp_scanner(timeFromMs(1), eventlist);
    for (Flow& f : flows) {
        if (f.src >= hosts || f.dst >= hosts || f.src == f.dst) {
            std::cerr << "flow " << f.src << " -> " << f.dst << ": not two hosts of the tree\n";
            return 2;
        }
        const Route* path = pinned(top, f);
        if (!path) {
            std::cerr << "no path from host " << f.src << " through US" << f.agg << "->CS" << f.core << "\n";
            return 1;
        }
        Route* fwd = new Route(*path);
        Route* back = new Route(*path->reverse());
        if (proto == "hpcc") {
            auto* src = new HPCCSrc(nullptr, nullptr, eventlist, rate);
            srand(1);                         // the constructor seeds random() from the wall clock
            HPCCSrc::_Wai = need("wai_b");    // and sets W_AI to one MSS
            src->set_dst(f.dst);
            src->set_flowsize(bytes);
            f.hpcc = new HPCCSink();
            f.hpcc->set_src(f.src);
            // the host's queue passes the PFC pauses it receives on to its senders
            static_cast<HostQueue*>(top->queues_ns_nlp[f.src][top->HOST_POD_SWITCH(f.src)][0])->addHostSender(src);
            fwd->push_back(f.hpcc);
            back->push_back(src);
            src->connect(fwd, back, *f.hpcc, 0);
            continue;
        }
        if (proto == "swift") {
            auto* src = new SwiftSrc(swift_scanner, nullptr, nullptr, eventlist);
            src->set_cwnd(need("init_cwnd_pkts") * packet_b);
            src->set_hdiv(need("hdiv"));
            src->set_flowsize(bytes);
            f.swift = new SwiftSink();
            src->connect(*fwd, *back, *f.swift, 0);  // Swift appends its ends itself
        } else {
            auto* src = new DCTCPSrc(nullptr, nullptr, eventlist);
            src->set_flowsize(bytes);
            f.tcp = new TcpSink();
            tcp_scanner.registerTcp(*src);
            fwd->push_back(f.tcp);
            back->push_back(src);
            src->connect(*fwd, *back, *f.tcp, 0);
        }
    }
    BaseQueue* q = top->queues_nlp_ns[top->HOST_POD_SWITCH(bottleneck)][bottleneck][0];
    Sampler sampler(eventlist, sample, q, flows, bytes);
    run_events(eventlist);
    std::cout.rdbuf(out);

    uint64_t drops = fat_tree_drops(top, false);
    std::printf("htsim proto=%s k=%u flows=%zu sim_s=%.6f bytes=%llu drops=%llu\n", proto.c_str(), k, flows.size(),
                duration_us / 1e6, (unsigned long long)bytes, (unsigned long long)drops);
    for (const Flow& f : flows)
        std::printf("flow src=%u dst=%u bytes=%llu fct_us=%.3f\n", f.src, f.dst, (unsigned long long)f.acked(), f.fct_us);
    std::printf("queue_bytes");
    for (mem_b s : sampler._samples) std::printf(" %lld", (long long)s);
    std::printf("\n");
    return 0;
}
