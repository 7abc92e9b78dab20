//! A flow's closed-loop transport, as its traffic table and its keys give it: the applications
//! `bulk`, `transactions` and `transfer` over `transport = { NAME = {…} }` (any transport the
//! registry lists: `TransportSlot`), and the older spellings that name TCP itself — the kinds
//! `tcp-bulk`, `tcp-transactions`, `tcp-transfer` and a flow's or workload's `tcp` table — which stay
//! valid and mean the same as `transport = { tcp = … }`.

use super::model::{FlowSpec, TcpSpec, TrafficKind, WorkloadSpec};
use super::slots::TransportSlot;

/// A closed-loop connection's application, as its traffic kind names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppKind {
    Bulk,
    Transactions,
    Transfer,
}

impl TrafficKind {
    /// The application a closed-loop connection of this kind runs (`transfer` is closed-loop only
    /// over a transport); None for the open-loop generators.
    pub fn application(self) -> Option<AppKind> {
        match self {
            TrafficKind::Bulk | TrafficKind::TcpBulk => Some(AppKind::Bulk),
            TrafficKind::Transactions | TrafficKind::TcpTransactions => Some(AppKind::Transactions),
            TrafficKind::Transfer | TrafficKind::TcpTransfer => Some(AppKind::Transfer),
            TrafficKind::Cbr | TrafficKind::Poisson | TrafficKind::Bernoulli | TrafficKind::Pareto => None,
        }
    }

    /// A finite transfer: `size` bytes once.
    pub fn is_transfer(self) -> bool {
        self.application() == Some(AppKind::Transfer)
    }

    /// The older spellings, which name TCP as the transport.
    fn names_tcp(self) -> bool {
        matches!(self, TrafficKind::TcpBulk | TrafficKind::TcpTransactions | TrafficKind::TcpTransfer)
    }
}

impl FlowSpec {
    /// The flow's closed-loop transport, or None for open-loop traffic.
    pub fn transport_slot(&self) -> Result<Option<TransportSlot>, String> {
        transport_of(self.traffic.kind, self.transport.as_ref(), self.tcp.as_ref())
    }
}

impl WorkloadSpec {
    /// The transport of the workload's transfers, or None for open-loop transfers.
    pub fn transport_slot(&self) -> Result<Option<TransportSlot>, String> {
        transport_of(*self.traffic.get_ref(), self.transport.as_ref(), self.tcp.as_ref())
    }
}

/// The transport of traffic `kind` given `transport` and the older `tcp` table.
fn transport_of(kind: TrafficKind, transport: Option<&TransportSlot>, tcp: Option<&TcpSpec>) -> Result<Option<TransportSlot>, String> {
    match (transport, tcp) {
        (Some(_), Some(_)) => Err("give the transport once: `transport = { tcp = … }` or the older `tcp` table, not both".into()),
        (None, Some(t)) if kind.names_tcp() => Ok(Some(TransportSlot::Tcp(t.clone()))),
        (None, Some(_)) => Err("a `tcp` table needs tcp-bulk, tcp-transactions or tcp-transfer traffic".into()),
        (None, None) if kind.names_tcp() => Ok(Some(TransportSlot::Tcp(TcpSpec::default()))),
        (Some(t @ TransportSlot::Tcp(_)), None) if kind.names_tcp() => Ok(Some(t.clone())),
        #[allow(unreachable_patterns)]
        (Some(_), None) if kind.names_tcp() => {
            Err("tcp-bulk, tcp-transactions and tcp-transfer traffic is TCP's: give kind \"bulk\", \"transactions\" or \"transfer\" with another transport".into())
        }
        (Some(t), None) if kind.application().is_some() => Ok(Some(t.clone())),
        (Some(_), None) => Err("a transport is for bulk, transactions and transfer traffic".into()),
        (None, None) if matches!(kind, TrafficKind::Bulk | TrafficKind::Transactions) => {
            Err("bulk and transactions traffic needs a transport, e.g. transport = { tcp = {} }".into())
        }
        (None, None) => Ok(None),
    }
}
