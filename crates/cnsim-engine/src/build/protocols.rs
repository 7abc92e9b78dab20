//! Protocol wiring: each slot's scenario table → its state machine, with range checks whose
//! messages name the key.

use crate::core::rng::Rng;
use crate::core::time::Time;
use crate::protocols::eqcn::{Decrease, EqcnRp, Reset};
use crate::protocols::pause::{PauseCfg, Trigger};
use crate::protocols::qcn::{CongestionPoint, CpParams, ProbeMode, ReactionPoint, RpParams, RpVariant, Sampling};
use crate::protocols::{bcn, dcqcn, ecm, red, sirens, threshold};
use crate::protocols::bcn::BcnCp;
use crate::protocols::ecm::EcmCp;
use crate::protocols::qcn::slot::QcnCp;
use crate::registry::{Aqm, Cp, Np, Rp};
use crate::scenario::*;
use crate::protocols::tcp::TcpParams;
use crate::units::{Amount, Bytes};

/// Queue thresholds a CP computes with (Qeq): at most 2^50 B, so Qoff and W·Qdelta stay exact in
/// 64-bit arithmetic.
pub const MAX_QUEUE_BYTES: u64 = 1 << 50;

/// Frame and message sizes a scenario may give: 1 B … 64 KiB (jumbo frames are ~9 kB).
pub const MAX_FRAME: u64 = 65_535;

pub fn frame_size(b: Bytes, key: &str) -> Result<u32, String> {
    if b.0 == 0 || b.0 > MAX_FRAME {
        return Err(format!("{key} must be between 1 B and {MAX_FRAME} B, got {b}"));
    }
    Ok(b.0 as u32)
}

/// A flow's SIRENS sender and the table each of its receivers starts with.
pub fn sirens_flow(s: &SirensFlowSpec) -> Result<(sirens::Sender, sirens::Table), String> {
    if s.init_ttl < 2 {
        return Err(format!("sirens.init_ttl must be at least 2, got {}", s.init_ttl));
    }
    let hops = s.hops.unwrap_or(s.init_ttl - 1);
    if hops == 0 || hops >= s.init_ttl {
        return Err(format!("sirens.hops must be in 1..{} (below init_ttl), got {hops}", s.init_ttl));
    }
    if s.req_data > 1 {
        return Err(format!("sirens.req_data must be 0 or 1, got {}", s.req_data));
    }
    if s.max_age.0 == 0 {
        return Err("sirens.max_age must be positive".into());
    }
    let mode = match s.mode {
        SirensModeSpec::Ttl => sirens::Mode::Ttl,
        SirensModeSpec::Min => sirens::Mode::Min,
        SirensModeSpec::Max => sirens::Mode::Max,
    };
    let probe = match s.probe {
        SirensProbeSpec::Link => sirens::Probe::Link,
        SirensProbeSpec::Loss => sirens::Probe::Loss,
        SirensProbeSpec::Queue => sirens::Probe::Queue,
    };
    Ok((sirens::Sender::new(mode, probe, s.req_data, s.init_ttl, hops), sirens::Table::new(probe, s.init_ttl, s.max_age.0)))
}

/// RED in front of a port's queue (`discipline = "red"`), with its random stream, or step marking
/// (`discipline = "threshold"`).
pub fn aqm(q: &QueueParams, rate_bps: u64, seed: u64, name: &str) -> Result<Option<Aqm>, String> {
    match (q.discipline, &q.dcqcn) {
        (Some(DisciplineSpec::Dcqcn), s) => {
            if let (Some(s), Amount::Bytes(cap)) = (s, q.capacity) {
                if s.kmin.0 >= cap {
                    return Err(format!("queue.dcqcn.kmin = {} B is not below the queue's capacity of {cap} B: the queue would drop before it marks", s.kmin.0));
                }
            }
            return dcqcn::spec::aqm(s.as_ref(), seed, name).map(|a| Some(Aqm::Dcqcn(a)));
        }
        (_, Some(_)) => return Err("queue.dcqcn needs queue.discipline = \"dcqcn\"".into()),
        (_, None) => {}
    }
    match (q.discipline, &q.threshold) {
        (Some(DisciplineSpec::Threshold), Some(t)) => {
            return match (t.k, q.capacity) {
                (Amount::Frames(k), Amount::Frames(cap)) if k >= cap => Err(format!(
                    "queue.threshold.k = {k} frames is not below the queue's capacity of {cap} frames: the queue would drop before it marks"
                )),
                (Amount::Frames(k), _) => Ok(Some(Aqm::Threshold(threshold::Threshold::new(k)))),
                (Amount::Bytes(_), _) => Err("queue.threshold.k must be given in frames (\"65 frames\")".into()),
            };
        }
        (Some(DisciplineSpec::Threshold), None) => return Err("queue.discipline = \"threshold\" needs queue.threshold = { k = \"… frames\" }".into()),
        (_, Some(_)) => return Err("queue.threshold needs queue.discipline = \"threshold\"".into()),
        (_, None) => {}
    }
    let spec = match (q.discipline, &q.red) {
        (Some(DisciplineSpec::Red), r) => r.clone().unwrap_or_default(),
        (_, Some(_)) => return Err("queue.red needs queue.discipline = \"red\"".into()),
        (_, None) => return Ok(None),
    };
    let ok = |x: f64| x.is_finite() && x >= 0.0;
    if !ok(spec.min_th) || !ok(spec.max_th) || spec.max_th <= spec.min_th || spec.max_th > 1e9 {
        return Err(format!("queue.red: need 0 ≤ min_th < max_th ≤ 1e9 packets, got {} and {}", spec.min_th, spec.max_th));
    }
    if !(spec.w_q > 0.0 && spec.w_q <= 1.0) {
        return Err(format!("queue.red.w_q must be in (0, 1], got {}", spec.w_q));
    }
    if !(spec.max_p > 0.0 && spec.max_p <= 1.0) {
        return Err(format!("queue.red.max_p must be in (0, 1], got {}", spec.max_p));
    }
    let s = frame_size(spec.mean_pktsize, "queue.red.mean_pktsize")?;
    // RED acts on an average above min_th: a queue that holds no more than min_th packets drops
    // before RED ever marks or drops early (Floyd & Jacobson 1993 §4: min_th < max_th < the buffer).
    // A capacity in bytes holds a number of packets that depends on their sizes: not checked.
    if let Amount::Frames(n) = q.capacity {
        if spec.min_th >= n as f64 {
            return Err(format!(
                "queue.red.min_th = {} packets is not below the queue's capacity of {n} frames: the queue would drop before RED acts",
                spec.min_th
            ));
        }
    }
    let p = red::RedParams {
        min_th: spec.min_th,
        max_th: spec.max_th,
        w_q: spec.w_q,
        max_p: spec.max_p,
        gentle: spec.gentle,
        ecn: spec.ecn,
        idle_pkt_time: crate::core::time::tx_time(s as u64, rate_bps).max(1),
    };
    Ok(Some(Aqm::Red(red::RedAqm { red: red::Red::new(p), rng: Rng::stream(seed, "red", name) })))
}

/// The congestion point of the port named `name`, or None for `cp = "none"`.
pub fn cp(slot: &CpSlot, frame: u64, seed: u64, name: &str) -> Result<Option<Cp>, String> {
    let spec = match slot {
        CpSlot::None => return Ok(None),
        CpSlot::Qcn(s) => s,
        CpSlot::Bcn(s) => return bcn_cp(s, frame, seed, name).map(Some),
        CpSlot::Ecm(s) => return ecm_cp(s, frame, seed, name).map(Some),
    };
    let qeq = spec.qeq.bytes(frame);
    if qeq == 0 || qeq > MAX_QUEUE_BYTES {
        return Err(format!("cp.qcn.qeq must be between 1 B and {MAX_QUEUE_BYTES} B, got {}", spec.qeq));
    }
    if !(spec.w >= 0.0 && spec.w.is_finite() && spec.w <= 1e6) {
        return Err(format!("cp.qcn.w must be a number in [0, 1e6], got {}", spec.w));
    }
    let sample_base = spec.sample_base.bytes(frame);
    if sample_base == 0 || sample_base > i64::MAX as u64 / 2 {
        return Err("cp.qcn.sample_base must be positive (and below 2^62 B)".into());
    }
    let p = CpParams {
        qeq,
        w: spec.w,
        sampling: match spec.sampling {
            SamplingSpec::Table => Sampling::Table,
            SamplingSpec::EveryFrame => Sampling::EveryFrame,
        },
        sample_base,
        jitter: spec.jitter,
        oversampling: spec.oversampling,
        qold_on_feedback: spec.qold == QoldSpec::OnFeedback,
        cnm_on_any_negative_fb: spec.cnm_on_any_negative_fb,
    };
    Ok(Some(Cp::Qcn(QcnCp {
        cp: CongestionPoint::new(p),
        rng: Rng::stream(seed, "cp", name),
        cnm_size: frame_size(spec.cnm_size, "cp.qcn.cnm_size")?,
        sample_dropped: spec.sample_dropped,
        eqcn_tie_break: spec.eqcn_tie_break,
        c_w0: Default::default(),
    })))
}

/// `[cp.bcn]`: thresholds in frames of `frame` bytes.
fn bcn_cp(spec: &BcnCpSpec, frame: u64, seed: u64, name: &str) -> Result<Cp, String> {
    if !(spec.pm > 0.0 && spec.pm <= 1.0) {
        return Err(format!("cp.bcn.pm must be in (0, 1], got {}", spec.pm));
    }
    if !(spec.w >= 0.0 && spec.w.is_finite() && spec.w <= 1e6) {
        return Err(format!("cp.bcn.w must be a number in [0, 1e6], got {}", spec.w));
    }
    let frames = |a: crate::units::Amount| a.bytes(frame) as f64 / frame as f64;
    let (qeq, qsc) = (frames(spec.qeq), frames(spec.qsc));
    if !(qeq > 0.0 && qeq < qsc && qsc <= MAX_QUEUE_BYTES as f64) {
        return Err(format!("cp.bcn needs 0 < qeq < qsc, got qeq {} and qsc {}", spec.qeq, spec.qsc));
    }
    let p = bcn::CpParams { pm: spec.pm, qeq, qsc, w: spec.w, msg_size: frame_size(spec.msg_size, "cp.bcn.msg_size")?, frame: frame as u32 };
    Ok(Cp::Bcn(BcnCp { cp: bcn::CongestionPoint::new(p), rng: Rng::stream(seed, "cp", name) }))
}

/// `[cp.ecm]`: thresholds in bytes, Fb in units of `unit` bytes.
fn ecm_cp(spec: &EcmCpSpec, frame: u64, seed: u64, name: &str) -> Result<Cp, String> {
    let (qeq, qsc, qmc) = (spec.qeq.bytes(frame), spec.qsc.bytes(frame), spec.qmc.bytes(frame));
    if !(qeq > 0 && qeq < qsc && qsc <= qmc && qmc <= MAX_QUEUE_BYTES) {
        return Err(format!("cp.ecm needs 0 < qeq < qsc <= qmc <= {MAX_QUEUE_BYTES} B, got {}, {} and {}", spec.qeq, spec.qsc, spec.qmc));
    }
    if !(spec.w >= 0.0 && spec.w.is_finite() && spec.w <= 1e6) {
        return Err(format!("cp.ecm.w must be a number in [0, 1e6], got {}", spec.w));
    }
    if spec.unit.0 == 0 || spec.unit.0 > MAX_FRAME {
        return Err(format!("cp.ecm.unit must be between 1 B and {MAX_FRAME} B, got {}", spec.unit));
    }
    let sample_interval = spec.sample_interval.bytes(frame);
    if sample_interval == 0 || sample_interval > i64::MAX as u64 / 2 {
        return Err("cp.ecm.sample_interval must be positive (and below 2^62 B)".into());
    }
    let p = ecm::CpParams {
        qeq,
        qsc,
        qmc,
        w: spec.w,
        unit: spec.unit.0,
        sample_interval,
        jitter: spec.jitter,
        msg_size: frame_size(spec.msg_size, "cp.ecm.msg_size")?,
    };
    Ok(Cp::Ecm(EcmCp { cp: ecm::CongestionPoint::new(p), rng: Rng::stream(seed, "cp", name) }))
}

fn ecm_rp_params(spec: &EcmRpSpec, line_rate: f64) -> Result<ecm::RpParams, String> {
    let finite_pos = |x: f64| x > 0.0 && x.is_finite();
    if !(finite_pos(spec.gi) && spec.gd > 0.0 && spec.gd < 1.0) {
        return Err(format!("rp.ecm.gi must be positive and rp.ecm.gd in (0, 1), got {} and {}", spec.gi, spec.gd));
    }
    if spec.min_rate.0 == 0 || spec.td.0 == 0 {
        return Err("rp.ecm.min_rate and rp.ecm.td must be positive".into());
    }
    if !(spec.min_dec_factor >= 0.0 && spec.min_dec_factor < 1.0) {
        return Err(format!("rp.ecm.min_dec_factor must be in [0, 1), got {}", spec.min_dec_factor));
    }
    if spec.rtt.is_some_and(|d| d.0 == 0) {
        return Err("rp.ecm.rtt must be positive (leave it out to measure it)".into());
    }
    Ok(ecm::RpParams {
        line_rate,
        gi: spec.gi,
        gd: spec.gd,
        ru: spec.ru.0 as f64,
        rd: spec.rd.0 as f64,
        td: spec.td.0,
        min_rate: spec.min_rate.0 as f64,
        min_dec_factor: spec.min_dec_factor,
        association: match spec.association {
            AssociationSpec::LatestNegative => bcn::Association::LatestNegative,
            AssociationSpec::First => bcn::Association::First,
        },
        rtt_drop: spec.rtt_drop,
        rtt: spec.rtt.map(|d| d.0),
    })
}

fn bcn_rp_params(spec: &BcnRpSpec, line_rate: f64) -> Result<bcn::RpParams, String> {
    let finite_pos = |x: f64| x > 0.0 && x.is_finite();
    if !(finite_pos(spec.gi) && spec.gd > 0.0 && spec.gd < 1.0) {
        return Err(format!("rp.bcn.gi must be positive and rp.bcn.gd in (0, 1), got {} and {}", spec.gi, spec.gd));
    }
    if spec.ru_fraction.is_some_and(|k| !(finite_pos(k) && k <= 1.0)) {
        return Err("rp.bcn.ru_fraction must be in (0, 1]".into());
    }
    if spec.ru.0 == 0 || spec.min_rate.0 == 0 {
        return Err("rp.bcn.ru and rp.bcn.min_rate must be positive".into());
    }
    if !(spec.min_dec_factor >= 0.0 && spec.min_dec_factor < 1.0) {
        return Err(format!("rp.bcn.min_dec_factor must be in [0, 1), got {}", spec.min_dec_factor));
    }
    Ok(bcn::RpParams {
        line_rate,
        gi: spec.gi,
        gd: spec.gd,
        ru: spec.ru.0 as f64,
        ru_fraction: spec.ru_fraction,
        min_rate: spec.min_rate.0 as f64,
        min_dec_factor: spec.min_dec_factor,
        stop_max: spec.stop_max.0,
        association: match spec.association {
            AssociationSpec::LatestNegative => bcn::Association::LatestNegative,
            AssociationSpec::First => bcn::Association::First,
        },
    })
}

fn qcn_rp_params(spec: &QcnRpSpec, line_rate: f64, key: &str) -> Result<RpParams, String> {
    if !(spec.gd > 0.0 && spec.gd < 1.0) {
        return Err(format!("{key}.gd must be in (0, 1), got {}", spec.gd));
    }
    if !(spec.min_dec_factor > 0.0 && spec.min_dec_factor <= 1.0) {
        return Err(format!("{key}.min_dec_factor must be in (0, 1], got {}", spec.min_dec_factor));
    }
    if spec.min_rate.0 == 0 || spec.bc_limit.0 == 0 || spec.timer.0 == 0 {
        return Err(format!("{key}.min_rate, {key}.bc_limit and {key}.timer must be positive"));
    }
    if !(spec.drift_factor >= 1.0 && spec.drift_factor <= 2.0) {
        return Err(format!("{key}.drift_factor must be in [1, 2], got {}", spec.drift_factor));
    }
    if spec.bc_limit.0 > i64::MAX as u64 / 2 {
        return Err(format!("{key}.bc_limit {} is too large", spec.bc_limit));
    }
    Ok(RpParams {
        variant: match spec.variant {
            RpVariantSpec::Standard => RpVariant::Standard,
            RpVariantSpec::ByteCounter => RpVariant::ByteCounter,
        },
        line_rate,
        bc_limit: spec.bc_limit.0,
        timer_period: spec.timer.0,
        fast_recovery_th: spec.fast_recovery_th,
        r_ai: spec.r_ai.0 as f64,
        r_hai: spec.r_hai.0 as f64,
        gd: spec.gd,
        min_dec_factor: spec.min_dec_factor,
        min_rate: spec.min_rate.0 as f64,
        extra_fast_recovery: spec.extra_fast_recovery,
        jitter: spec.jitter,
        ai_cycles: spec.ai_cycles,
        drift_factor: spec.drift_factor,
        probe: match spec.probe {
            ProbeSpec::None => ProbeMode::None,
            ProbeSpec::Cp => ProbeMode::Cp,
            ProbeSpec::SubPath => ProbeMode::SubPath,
            ProbeSpec::Path => ProbeMode::Path,
        },
        probe_size: frame_size(spec.probe_size, &format!("{key}.probe_size"))?,
    })
}

/// A constructor for the reaction point of each flow of a source whose link runs at `line_rate`.
pub fn rp(slot: &RpSlot, line_rate: f64) -> Result<Option<Box<dyn Fn() -> Rp>>, String> {
    let (params, eqcn) = match slot {
        RpSlot::None => return Ok(None),
        RpSlot::Bcn(s) => {
            let p = bcn_rp_params(s, line_rate)?;
            return Ok(Some(Box::new(move || Rp::Bcn(bcn::ReactionPoint::new(p)))));
        }
        RpSlot::Ecm(s) => {
            let p = ecm_rp_params(s, line_rate)?;
            return Ok(Some(Box::new(move || Rp::Ecm(ecm::ReactionPoint::new(p)))));
        }
        RpSlot::Dcqcn(s) => return dcqcn::spec::rp(s, line_rate).map(|r| Some(Box::new(move || Rp::Dcqcn(r.clone())) as Box<dyn Fn() -> Rp>)),
        RpSlot::Qcn(s) => (qcn_rp_params(s, line_rate, "rp.qcn")?, None),
        RpSlot::Eqcn(s) => {
            if s.fb_hat_reset == FbHatReset::Expire && s.fb_hat_expiry.0 == 0 {
                return Err("rp.eqcn.fb_hat_expiry must be positive".into());
            }
            let decrease = match s.decrease {
                EqcnDecrease::Saved => Decrease::Saved,
                EqcnDecrease::Received => Decrease::Received,
            };
            let reset = match s.fb_hat_reset {
                FbHatReset::At63 => Reset::At63,
                FbHatReset::OnRelease => Reset::OnRelease,
                FbHatReset::Expire => Reset::Expire(s.fb_hat_expiry.0),
            };
            (qcn_rp_params(&s.qcn(), line_rate, "rp.eqcn")?, Some((decrease, reset)))
        }
    };
    Ok(Some(Box::new(move || match eqcn {
        None => Rp::Qcn(ReactionPoint::new(params)),
        Some((d, r)) => Rp::Eqcn(crate::protocols::eqcn::EqcnReactionPoint { r: ReactionPoint::new(params), e: EqcnRp::with_reset(d, r) }),
    })))
}

/// A constructor for the notification point at each receiver of a flow, if its protocol has one.
pub fn np(slot: &RpSlot) -> Result<Option<Box<dyn Fn() -> Np>>, String> {
    match slot {
        RpSlot::Dcqcn(s) => dcqcn::spec::np(s).map(|n| Some(Box::new(move || Np::Dcqcn(n.clone())) as Box<dyn Fn() -> Np>)),
        _ => Ok(None),
    }
}

/// Link-level flow control for every switch port, or None.
pub fn flow_control(slot: &FlowControlSlot, frame: u64) -> Result<Option<PauseCfg>, String> {
    let (spec, pfc, key) = match slot {
        FlowControlSlot::None => return Ok(None),
        FlowControlSlot::Pause(s) => (s, false, "flow_control.pause"),
        FlowControlSlot::Pfc(s) => (s, true, "flow_control.pfc"),
    };
    let (xoff, xon) = (spec.xoff.bytes(frame), spec.xon.bytes(frame));
    if xon > xoff {
        return Err(format!("{key}.xon ({}) must not be above {key}.xoff ({})", spec.xon, spec.xoff));
    }
    if spec.quanta == 0 {
        return Err(format!("{key}.quanta must be positive (0 is XON)"));
    }
    if spec.refresh.is_some_and(|r| r.0 == 0) {
        return Err(format!("{key}.refresh must be positive"));
    }
    let mut classes = 0u8;
    for &p in &spec.priorities {
        if p > 7 {
            return Err(format!("{key}.priorities: {p} is not a priority (0-7)"));
        }
        classes |= 1 << p;
    }
    Ok(Some(PauseCfg {
        pfc,
        trigger: match spec.trigger {
            TriggerSpec::Ingress => Trigger::Ingress,
            TriggerSpec::Egress => Trigger::Egress,
        },
        xoff,
        xon,
        quanta: spec.quanta,
        refresh: spec.refresh.map(|d| d.0 as Time),
        classes,
        frame_size: frame_size(spec.frame_size, &format!("{key}.frame_size"))?,
    }))
}

/// `[flow.tcp]` → the TCP state machines' parameters.
pub fn tcp(spec: &TcpSpec) -> Result<TcpParams, String> {
    use crate::protocols::tcp::{EcnMode, Variant};
    let mss = frame_size(spec.mss, "tcp.mss")?;
    frame_size(spec.ack_size, "tcp.ack_size")?;
    if mss as u64 + crate::protocols::tcp::HEADER_BYTES as u64 > MAX_FRAME {
        return Err(format!("tcp.mss must leave room for 40 B of headers in {MAX_FRAME} B"));
    }
    if spec.init_cwnd == 0 || spec.rwnd == 0 || spec.dupack_threshold == 0 {
        return Err("tcp.init_cwnd, tcp.rwnd and tcp.dupack_threshold must be positive".into());
    }
    if !(spec.dctcp_g > 0.0 && spec.dctcp_g <= 1.0) {
        return Err(format!("tcp.dctcp_g must be in (0, 1], got {}", spec.dctcp_g));
    }
    if spec.min_rto.0 == 0 || spec.max_rto.0 == 0 || spec.initial_rto.0 == 0 || spec.delack_timeout.0 == 0 {
        return Err("tcp.min_rto, max_rto, initial_rto and delack_timeout must be positive".into());
    }
    Ok(TcpParams {
        variant: match spec.variant {
            TcpVariantSpec::Reno => Variant::Reno,
            TcpVariantSpec::Newreno => Variant::NewReno,
        },
        sack: spec.sack,
        mss,
        init_cwnd: spec.init_cwnd,
        rwnd: spec.rwnd,
        dupack_threshold: spec.dupack_threshold,
        limited_transmit: spec.limited_transmit,
        min_rto: spec.min_rto.0,
        max_rto: spec.max_rto.0,
        initial_rto: spec.initial_rto.0,
        delayed_ack: spec.delayed_ack,
        delack_timeout: spec.delack_timeout.0,
        ecn: match spec.ecn {
            TcpEcnSpec::Off => EcnMode::Off,
            TcpEcnSpec::Classic => EcnMode::Classic,
            TcpEcnSpec::Dctcp => EcnMode::Dctcp,
        },
        dctcp_g: spec.dctcp_g,
        ..TcpParams::default()
    })
}
