//! Which registered protocol fills a slot: each trait slot's enum answers with its variant's name,
//! the protocol's line in the table (`protocols.rs`), so that a report can offer the outputs of the
//! protocols that ran (`Protocol::name` is the variant's name in lower case).

use super::protocols::occupants;

macro_rules! named {
    ($enum:ident $($variant:ident($ty:ty),)+) => {
        impl super::$enum {
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
