//! Scenario files (docs/architecture.md §3): the serde model, loading with `--set` overrides, and errors that
//! name the file, line and key. The schema is documented in docs/scenarios.md.

mod error;
mod fabric;
mod keyed;
mod load;
pub(crate) mod model;
mod names;
mod slots;
mod spans;
mod transport;
mod unseen;

pub use error::ScenarioError;
pub use fabric::{preset_names, presets};
pub use load::{load, Loaded};
pub use model::*;
pub use names::{count, expand};
pub use slots::*;
pub use transport::AppKind;
