//! Protocol state machines. Each is a plain struct fed with inputs (frame facts, current time, its
//! random stream) that returns what the engine must do; none of them owns an event loop.

pub mod eqcn;
pub mod qcn;
