//! The closed-loop transport slot's enum, built from the registered occupants (`protocols.rs`),
//! each dispatched to its `slots::transport::TransportMachine` with a `match`.

use crate::core::time::Time;
use crate::net::frame::Frame;
use crate::net::telemetry::Stack;
use crate::protocols::*;
use crate::slots::transport::{Acked, Data, Poll, Received, TransportMachine, TransportTimer};
use crate::slots::wire::Ctx;
use super::protocols::occupants;
use super::slot::slot;
use serde_json::Value;

/// Writes the slot's enum from its registered occupants (`protocols.rs`) and its dispatch.
macro_rules! transport {
    ($($variant:ident($ty:ty),)+) => {
        slot! {
            /// The closed-loop transport connection of a flow: one variant per protocol. Its tag
            /// is a byte of its own (`repr(u8)`), so that a `match` reads it in one load instead
            /// of deriving it from a niche in the first variant's fields.
            #[repr(u8)]
            pub enum Transport: TransportMachine { $($variant($ty),)+ }
            #[inline] fn poll_send(&mut self, now: Time) -> Option<Data>;
            #[inline] fn stamp(&mut self, f: &mut Frame, now: Time);
            #[inline] fn on_data(&mut self, f: &Frame, now: Time) -> Option<bool>;
            fn on_delayed_ack(&mut self, now: Time) -> bool;
            #[inline] fn write_ack(&mut self, f: &mut Frame, now: Time);
            #[inline] fn on_ack(&mut self, f: &Frame, now: Time) -> Acked;
            fn on_telemetry(&mut self, stack: &Stack, now: Time);
            fn on_timeout(&mut self, now: Time);
            fn on_app(&mut self, now: Time);
            #[inline] fn timer(&self, t: TransportTimer) -> Option<Time>;
            fn series(&self, k: usize) -> f64;
            fn start_window(&mut self);
            fn report(&self, in_window: bool, window_s: f64) -> Value;
            fn segment_bytes(&self) -> (u32, u32);
            fn ack_bytes(&self) -> u32;
            fn cut_by_marks(&self) -> Option<&'static str>;
            fn wire(&self, c: &mut Ctx);
            #[inline] fn poll(&mut self, now: Time) -> Poll;
            #[inline] fn receive(&mut self, f: &Frame, ack: &mut Frame, now: Time) -> Option<Received>;
            #[inline] fn acked(&mut self, f: &Frame, stack: Option<&Stack>, now: Time) -> (Acked, Option<Time>);
        }

        impl Transport {
            /// The names of its recorded series, by index (`series`), as its protocol names them.
            pub fn series_names(&self) -> &'static [&'static str] {
                match self {
                    $(Transport::$variant(_) => <$ty as TransportMachine>::SERIES,)+
                }
            }
        }
    };
}
occupants!(Transport => transport);
