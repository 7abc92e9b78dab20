//! The one dispatch macro of the trait slots: `slot!` writes a slot's enum (one variant per
//! protocol, one line each) and, for each method of the slot's trait it lists, an inherent method
//! that forwards to the variant's implementation with a `match` — static dispatch, never `dyn`.
//!
//! ```text
//! slot! {
//!     /// The reaction point of one flow.
//!     pub enum Rp: RpMachine {
//!         Qcn(qcn::ReactionPoint),
//!         Bcn(bcn::ReactionPoint),
//!     }
//!     #[inline] fn rate(&self) -> f64;
//!     fn on_timer(&mut self, now: Time, queue_empty: bool, rng: &mut Rng) -> TimerAction;
//! }
//! ```

macro_rules! slot {
    (
        $(#[$meta:meta])*
        pub enum $slot:ident: $tr:ident { $($(#[$vmeta:meta])* $variant:ident($ty:ty),)+ }
        $($methods:tt)*
    ) => {
        $(#[$meta])*
        pub enum $slot {
            $($(#[$vmeta])* $variant($ty),)+
        }

        impl $slot {
            $crate::registry::slot::slot!(@methods $slot $tr [$($variant)+] $($methods)*);
        }
    };
    (@methods $slot:ident $tr:ident $variants:tt) => {};
    (@methods $slot:ident $tr:ident $variants:tt
        $(#[$a:meta])* fn $f:ident(&self $(, $x:ident: $t:ty)* $(,)?) $(-> $r:ty)?; $($rest:tt)*
    ) => {
        $(#[$a])*
        pub fn $f(&self $(, $x: $t)*) $(-> $r)? {
            $crate::registry::slot::slot!(@match self $slot $tr $f $variants ($($x),*))
        }
        $crate::registry::slot::slot!(@methods $slot $tr $variants $($rest)*);
    };
    (@methods $slot:ident $tr:ident $variants:tt
        $(#[$a:meta])* fn $f:ident(&mut self $(, $x:ident: $t:ty)* $(,)?) $(-> $r:ty)?; $($rest:tt)*
    ) => {
        $(#[$a])*
        pub fn $f(&mut self $(, $x: $t)*) $(-> $r)? {
            $crate::registry::slot::slot!(@match self $slot $tr $f $variants ($($x),*))
        }
        $crate::registry::slot::slot!(@methods $slot $tr $variants $($rest)*);
    };
    // The variants' list and the arguments each travel as one token tree, so that the arms can
    // repeat over the variants while each passes every argument.
    (@match $s:ident $slot:ident $tr:ident $f:ident [$($variant:ident)+] $args:tt) => {
        match $s {
            $($slot::$variant(p) => $crate::registry::slot::slot!(@call $tr $f p $args),)+
        }
    };
    (@call $tr:ident $f:ident $p:ident ($($x:ident),*)) => {
        $tr::$f($p $(, $x)*)
    };
}
pub(crate) use slot;
