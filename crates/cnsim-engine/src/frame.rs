//! Frames and the arena that holds them (DESIGN.md §2). Frames are referred to by `FrameId`
//! (a u32 slot index); a multicast replica is a copy of the header in a new slot.

use crate::time::Time;

pub type FrameId = u32;
pub type NodeId = u32;
pub type FlowId = u32;

/// What a frame is. Control frames are real frames: sized, queued, timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    Data,
    /// QCN congestion notification message (802.1Qau, EtherType 0x22E7).
    Cnm,
}

/// Destination: a host or a multicast group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    Node(NodeId),
    Group(u32),
}

/// QCN fields of a CNM (802.1Qau §33.4; PROTOCOLS.md §10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CnmFields {
    pub qntz_fb: u8,
    /// Congestion point identifier (here: the index of the CP queue).
    pub cpid: u32,
    /// Queue offset and delta in bytes, as measured at the sample.
    pub qoff: i32,
    pub qdelta: i32,
}

#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub kind: FrameKind,
    pub size: u32,
    pub src: NodeId,
    pub dst: Dest,
    /// Data: the flow (CN-TAG flow id = RPID). CNM: the flow whose RP it addresses.
    pub flow: FlowId,
    pub created: Time,
    /// E-QCN (seed 001 Algorithm 1): the frame comes from an E-QCN RP and carries its saved
    /// largest QntzFb and the CPID that set it.
    pub eqcn: bool,
    pub fb_hat: u8,
    pub fb_hat_cpid: u32,
    pub cnm: CnmFields,
}

/// Slab of frames with a free list: no allocation per frame once warmed up.
#[derive(Default)]
pub struct Arena {
    slots: Vec<Frame>,
    free: Vec<FrameId>,
}

impl Arena {
    #[inline]
    pub fn alloc(&mut self, f: Frame) -> FrameId {
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = f;
            id
        } else {
            self.slots.push(f);
            (self.slots.len() - 1) as FrameId
        }
    }
    #[inline]
    pub fn release(&mut self, id: FrameId) {
        self.free.push(id);
    }
    #[inline]
    pub fn get(&self, id: FrameId) -> &Frame {
        &self.slots[id as usize]
    }
    /// Frames currently allocated (in queues or on wires).
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}
