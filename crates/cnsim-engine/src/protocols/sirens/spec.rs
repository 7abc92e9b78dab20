//! SIRENS' scenario tables (Nakauchi & Kobayashi 2006): `[sirens]` for routers, a flow's `sirens`.
//! The scenario model composes them from the registry (`scenario/model.rs`: the router-feedback
//! slot's tables); every field has a documented default (docs/scenarios.md) and unknown keys are
//! errors. `[sirens]` builds every router port's meter, a flow's table its sender and its
//! receivers' tables (`FromSpec`), with range checks whose messages name the key.

use super::{LinkMeter, Mode, Probe, Sender, Table};
use crate::slots::spec::FromSpec;
use crate::units::Duration;
use serde::{Deserialize, Serialize};

crate::defaults::default_fns! {
    d_window: Duration = Duration(200_000_000_000);
    d_req_data: u8 = 1;
    d_init_ttl: u8 = 64;
    d_max_age: Duration = Duration(1_000_000_000_000);
}

/// `[sirens]`: the routers' side of SIRENS.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SirensRouterSpec {
    /// Utilisation (and loss) window behind the available bandwidth, default 0.2 s [assumed:
    /// docs/protocols.md §8; the seed gives none].
    #[serde(default = "d_window")]
    pub window: Duration,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SirensModeSpec {
    #[default]
    Ttl,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SirensProbeSpec {
    #[default]
    Link,
    Loss,
    Queue,
}

/// `[flow.sirens]`: the sender's request and the receivers' tables.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SirensFlowSpec {
    /// req_mode: "ttl" (one hop per packet, default), "min" or "max" (aggregate along the path).
    #[serde(default)]
    pub mode: SirensModeSpec,
    /// req_probe: "link" (default), "loss" or "queue".
    #[serde(default)]
    pub probe: SirensProbeSpec,
    /// MIN/MAX: which of the profile's two values to aggregate (0 or 1), default 1 (LINK: the
    /// available bandwidth).
    #[serde(default = "d_req_data")]
    pub req_data: u8,
    /// IP TTL the sender sets, default 64.
    #[serde(default = "d_init_ttl")]
    pub init_ttl: u8,
    /// TTL mode: how many routers the req_ttl cycle covers, default init_ttl − 1 (the seed's cycle
    /// "from TTL to 1").
    pub hops: Option<u8>,
    /// A receiver's sample older than this is stale, default 1 s [assumed].
    #[serde(default = "d_max_age")]
    pub max_age: Duration,
}

/// A flow's `sirens`, checked: its mode, its probe and the routers its TTL cycle covers.
fn request(s: &SirensFlowSpec) -> Result<(Mode, Probe, u8), String> {
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
        return Err(format!("sirens.max_age must be positive, got {}", s.max_age));
    }
    let mode = match s.mode {
        SirensModeSpec::Ttl => Mode::Ttl,
        SirensModeSpec::Min => Mode::Min,
        SirensModeSpec::Max => Mode::Max,
    };
    let probe = match s.probe {
        SirensProbeSpec::Link => Probe::Link,
        SirensProbeSpec::Loss => Probe::Loss,
        SirensProbeSpec::Queue => Probe::Queue,
    };
    Ok((mode, probe, hops))
}

/// `[sirens]` → the meter of every router output port.
impl FromSpec for LinkMeter {
    type Spec = SirensRouterSpec;
    type Cx = ();
    fn from_spec(s: &SirensRouterSpec, _: &()) -> Result<LinkMeter, String> {
        if s.window.0 == 0 {
            return Err(format!("sirens.window must be positive, got {}", s.window));
        }
        Ok(LinkMeter::new(s.window.0))
    }
}

/// A flow's `sirens` → the request writer of its source.
impl FromSpec for Sender {
    type Spec = SirensFlowSpec;
    type Cx = ();
    fn from_spec(s: &SirensFlowSpec, _: &()) -> Result<Sender, String> {
        let (mode, probe, hops) = request(s)?;
        Ok(Sender::new(mode, probe, s.req_data, s.init_ttl, hops))
    }
}

/// A flow's `sirens` → the table each of its receivers starts with.
impl FromSpec for Table {
    type Spec = SirensFlowSpec;
    type Cx = ();
    fn from_spec(s: &SirensFlowSpec, _: &()) -> Result<Table, String> {
        let (_, probe, _) = request(s)?;
        Ok(Table::new(probe, s.init_ttl, s.max_age.0))
    }
}
