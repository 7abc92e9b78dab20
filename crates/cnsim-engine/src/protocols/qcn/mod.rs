//! IEEE 802.1Qau Quantized Congestion Notification: congestion point (CP) and reaction point (RP).
//! Sources: PROTOCOLS.md §2–§4; seed 000_0d61b4801e80120c.txt §2; seed 001_94a0dca41553dedb.txt §2;
//! the QCN pseudo-code v2.2 as public implementations read it.

pub mod cp;
pub mod rp;

pub use cp::{CongestionPoint, CpParams, Sample, Sampling};
pub use rp::{ReactionPoint, RpParams, RpVariant, TimerAction};

/// Largest quantized feedback: Fb is carried in 6 bits (802.1Qau; seed 000 §2.1).
pub const QNTZ_FB_MAX: u8 = 63;
