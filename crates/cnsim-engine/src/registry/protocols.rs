//! The registration of the protocols: one line per protocol, naming its variant, its module
//! (whose `PROTOCOL` says what it registers: `slots::register`) and, for each trait slot it
//! fills, the type that implements the slot's trait (and, for a queue management, the key of its
//! table in a queue: `queue.red`; for router feedback, the key of its tables at the scenario's top
//! level, `[sirens]`, and in a flow, `flow.sirens`; for a transport whose older scenario files name
//! it, the key they use: `Transport(Type, key)`, read in `scenario/transport.rs`). Each slot's file builds its enum from this table
//! (`occupants!`), and so do the scenario's slots (`scenario/slots.rs`: each type names its table,
//! `slots::spec::FromSpec`), the build's dispatch (`build/protocols.rs`) and the list of
//! registrations (`occupants!(Protocol => …)`), so adding a protocol is one line here.

/// `$callback!` with the occupants of `$slot` (`Variant(Type),` in table order; a queue
/// management's and the router-feedback slots' `Variant(Type, key),`), after `$before` (tokens a
/// callback passes itself); for the slot `Protocol`, with every protocol's module (`module,`); for
/// `OlderTransport`, the transports with an older key (`Variant(Type, key),`).
macro_rules! occupants {
    ($slot:ident => $callback:ident $($before:tt)*) => {
        $crate::registry::protocols::pick! { $slot $callback [$($before)*] [
            Qcn(qcn): Cp(qcn::slot::QcnCp), Rp(qcn::ReactionPoint);
            Eqcn(eqcn): Rp(eqcn::EqcnReactionPoint);
            Bcn(bcn): Cp(bcn::BcnCp), Rp(bcn::ReactionPoint);
            Ecm(ecm): Cp(ecm::EcmCp), Rp(ecm::ReactionPoint);
            Pause(pause): FcGen(pause::slot::PauseFc);
            Tcp(tcp): Transport(tcp::slot::TcpFlow, tcp);
            Hpcc(hpcc): Transport(hpcc::slot::HpccFlow);
            Red(red): Aqm(red::RedAqm, red);
            Threshold(threshold): Aqm(threshold::Threshold, threshold);
            Sirens(sirens): Meter(sirens::LinkMeter, sirens), RfSender(sirens::Sender, sirens), RfTable(sirens::Table, sirens);
            Emcast(emcast): McastCc(emcast::Emcast);
            Rlm(rlm): McastCc(rlm::Rlm);
            Dcqcn(dcqcn): Rp(dcqcn::ReactionPoint), Np(dcqcn::slot::Np), Aqm(dcqcn::slot::MarkingAqm, dcqcn);
            Timely(timely): Transport(timely::slot::TimelyFlow);
            Swift(swift): Transport(swift::slot::SwiftFlow);
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
    ($slot:ident $cb:ident $acc:tt [$v:ident($m:ident): $($s:ident($($t:tt)*)),*; $($rest:tt)*]) => {
        $crate::registry::protocols::pick! { @each $slot $cb $acc [@module $m, $($v $s($($t)*),)*] [$($rest)*] }
    };
    (@each Protocol $cb:ident [$($acc:tt)*] [@module $m:ident, $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Protocol $cb [$($acc)* $m,] [$($more)*] $rest }
    };
    (@each $slot:ident $cb:ident $acc:tt [@module $m:ident, $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each $slot $cb $acc [$($more)*] $rest }
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
    (@each Aqm $cb:ident [$($acc:tt)*] [$v:ident Aqm($t:ty, $key:ident), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Aqm $cb [$($acc)* $v($t, $key),] [$($more)*] $rest }
    };
    (@each Transport $cb:ident [$($acc:tt)*] [$v:ident Transport($t:ty, $key:ident), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Transport $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each OlderTransport $cb:ident [$($acc:tt)*] [$v:ident Transport($t:ty, $key:ident), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each OlderTransport $cb [$($acc)* $v($t, $key),] [$($more)*] $rest }
    };
    (@each Transport $cb:ident [$($acc:tt)*] [$v:ident Transport($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Transport $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each FcGen $cb:ident [$($acc:tt)*] [$v:ident FcGen($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each FcGen $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each Meter $cb:ident [$($acc:tt)*] [$v:ident Meter($t:ty, $key:ident), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each Meter $cb [$($acc)* $v($t, $key),] [$($more)*] $rest }
    };
    (@each RfSender $cb:ident [$($acc:tt)*] [$v:ident RfSender($t:ty, $key:ident), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each RfSender $cb [$($acc)* $v($t, $key),] [$($more)*] $rest }
    };
    (@each RfTable $cb:ident [$($acc:tt)*] [$v:ident RfTable($t:ty, $key:ident), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each RfTable $cb [$($acc)* $v($t, $key),] [$($more)*] $rest }
    };
    (@each McastCc $cb:ident [$($acc:tt)*] [$v:ident McastCc($t:ty), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each McastCc $cb [$($acc)* $v($t),] [$($more)*] $rest }
    };
    (@each $slot:ident $cb:ident $acc:tt [$v:ident $other:ident($($t:tt)*), $($more:tt)*] $rest:tt) => {
        $crate::registry::protocols::pick! { @each $slot $cb $acc [$($more)*] $rest }
    };
}
pub(crate) use pick;
