//! The registration of the protocols that fill trait slots: one line per protocol, naming its
//! variant and, for each slot it fills, the type that implements the slot's trait. Each slot's
//! file builds its enum from this table (`occupants!`), so adding a protocol to the trait slots
//! is one line here.

/// `$callback!` with the occupants of `$slot` (`Variant(Type),` in table order).
macro_rules! occupants {
    ($slot:ident => $callback:ident) => {
        $crate::registry::protocols::pick! { $slot $callback [] [
            Qcn: Cp(qcn::slot::QcnCp), Rp(qcn::ReactionPoint);
            Eqcn: Rp(eqcn::EqcnReactionPoint);
            Bcn: Cp(bcn::BcnCp), Rp(bcn::ReactionPoint);
            Ecm: Cp(ecm::EcmCp), Rp(ecm::ReactionPoint);
            Red: Aqm(red::RedAqm);
            Threshold: Aqm(threshold::Threshold);
            Dcqcn: Rp(dcqcn::ReactionPoint), Np(dcqcn::slot::Np), Aqm(dcqcn::slot::MarkingAqm);
            Tcp: Transport(tcp::slot::TcpFlow);
            Pause: FcGen(pause::slot::PauseFc);
            Emcast: McastCc(emcast::Emcast);
            Rlm: McastCc(rlm::Rlm);
        ] }
    };
}
pub(crate) use occupants;

/// Walks the table, keeping the entries of one slot (a slot's name is matched as a literal, so
/// each trait slot has its rule).
macro_rules! pick {
    ($slot:ident $cb:ident [$($acc:tt)*] []) => {
        $cb! { $($acc)* }
    };
    ($slot:ident $cb:ident $acc:tt [$v:ident: $($s:ident($t:ty)),+; $($rest:tt)*]) => {
        $crate::registry::protocols::pick! { @each $slot $cb $acc [$($v $s($t),)+] [$($rest)*] }
    };
    (@each $slot:ident $cb:ident $acc:tt [] $rest:tt) => {
        $crate::registry::protocols::pick! { $slot $cb $acc $rest }
    };
    (@each Cp $cb:ident [$($acc:tt)*] [$v:ident Cp($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Cp $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each Rp $cb:ident [$($acc:tt)*] [$v:ident Rp($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Rp $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each Np $cb:ident [$($acc:tt)*] [$v:ident Np($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Np $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each Aqm $cb:ident [$($acc:tt)*] [$v:ident Aqm($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Aqm $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each Transport $cb:ident [$($acc:tt)*] [$v:ident Transport($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Transport $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each FcGen $cb:ident [$($acc:tt)*] [$v:ident FcGen($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each FcGen $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each McastCc $cb:ident [$($acc:tt)*] [$v:ident McastCc($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each McastCc $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each $slot:ident $cb:ident $acc:tt [$v:ident $other:ident($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each $slot $cb $acc [$($more)*] $rest }
    };
}
pub(crate) use pick;
