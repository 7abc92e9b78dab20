//! Which registered protocol fills a slot: each trait slot's enum answers with its variant's name,
//! the protocol's line in the table (`protocols.rs`), so that a report can offer the outputs of the
//! protocols that ran (`Protocol::name` is the variant's name in lower case).

use super::protocols::occupants;
use super::transport::Transport;
use super::{Cp, Np, Rp};

macro_rules! named {
    ($enum:ident $($variant:ident($ty:ty),)+) => {
        impl $enum {
            /// The names of its variants, in the table's order.
            pub const VARIANTS: &'static [&'static str] = &[$(stringify!($variant)),+];

            /// The variant's name in the registry's table (the protocol's, as `Qcn`).
            pub fn protocol(&self) -> &'static str {
                match self {
                    $(Self::$variant(_) => stringify!($variant),)+
                }
            }
        }
    };
}
macro_rules! cp_named {
    ($($t:tt)*) => { named! { Cp $($t)* } };
}
macro_rules! rp_named {
    ($($t:tt)*) => { named! { Rp $($t)* } };
}
macro_rules! np_named {
    ($($t:tt)*) => { named! { Np $($t)* } };
}
occupants!(Cp => cp_named);
occupants!(Rp => rp_named);
occupants!(Np => np_named);
macro_rules! transport_named {
    ($($t:tt)*) => { named! { Transport $($t)* } };
}
occupants!(Transport => transport_named);

#[cfg(test)]
mod tests {
    use super::super::{transport::Transport, Cp, Np, Rp, PROTOCOLS};

    #[test]
    fn every_slot_variant_names_a_registered_protocol() {
        for v in Cp::VARIANTS.iter().chain(Rp::VARIANTS).chain(Np::VARIANTS).chain(Transport::VARIANTS) {
            assert!(PROTOCOLS.iter().any(|p| p.name.eq_ignore_ascii_case(v)), "{v}: no protocol of that name");
        }
    }
}
