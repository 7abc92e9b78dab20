"""Packet capture: the `--pcap FILTER` option, and writing the engine's capture as pcapng.

The engine builds each captured frame's on-wire bytes (docs/protocols.md §10; the layout is documented
in `crates/cnsim-engine/src/tap/wire.rs`) when a transmission starts on a selected port; this module
turns a filter into the engine's selection and writes the file with dpkt's pcapng blocks: one
interface per selected port (named "NODE>PEER", as the stats name queues), nanosecond timestamps
(simulated time from 0). Wireshark decodes Ethernet, 802.1Q, PAUSE/PFC and IPv4/TCP itself;
`cnsim/wireshark/cnsim.lua` adds CN-TAG, CNM, BCN and cnsim's shim (`cnsim wireshark-plugin`
prints where it is).

Filter: clauses separated by spaces or ';', each `key=value[,value…]`, values may use shell-style
wildcards; the clauses must all match (values within one clause are alternatives):

- `node=NAME` — transmissions of these nodes (every port of the node);
- `port=NODE>PEER` — transmissions on these ports;
- `kind=data,…` — these frame kinds: `data`, and the kinds the engine's protocols register
  (`_core.capture_kinds()`; `cnsim run --help` lists them).

An empty filter captures every port and kind.
"""

import fnmatch
import re
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

KEYS = ("node", "port", "kind")
SNAPLEN = 256  # bytes kept of each frame: every header cnsim writes, CNM with its 64-B MSDU
TSRESOL_NS = 9  # pcapng if_tsresol: 10^-9 s
EPB_ORIGINAL_LENGTH = 24  # offset of an Enhanced Packet Block's original length (pcapng §4.3)


MAX_SNAPLEN = 262_144              # the largest snapshot length pcap tools use
MAX_CAPTURE_BYTES = 10**15         # a bound any file system can hold (1 PB)


@dataclass
class CaptureSpec:
    """What to capture: a filter (see module doc), a snap length and a bound on the file's size."""

    filter: str = ""
    snaplen: int = SNAPLEN
    max_bytes: int = 0  # 0 = no bound

    def __post_init__(self):  # checked here, not as an OverflowError inside the engine
        from . import _args

        _args.integer(self.snaplen, "pcap snaplen", low=64, high=MAX_SNAPLEN)
        _args.integer(self.max_bytes, "pcap max_bytes", low=0, high=MAX_CAPTURE_BYTES)

    @classmethod
    def of(cls, value) -> "CaptureSpec | None":
        """None/False → None; True → everything; a str → that filter; a CaptureSpec as is."""
        if value is None or value is False:
            return None
        if value is True:
            return cls()
        if isinstance(value, str):
            return cls(filter=value)
        if isinstance(value, cls):
            return value
        raise TypeError(f"pcap: expected a filter string, True or a CaptureSpec, got {value!r}")


def kind_names() -> list[str]:
    from . import _core

    return list(_core.capture_kinds())


def select(filter_text: str, port_names: list[str]) -> tuple[list[int], int]:
    """(port ids, kind bits) that `filter_text` selects; ValueError naming the clause otherwise."""
    kinds = kind_names()
    clauses: dict[str, list[str]] = {}
    for clause in re.split(r"[;\s]+", filter_text.strip()):
        if not clause:
            continue
        key, sep, values = clause.partition("=")
        vals = [v for v in values.split(",") if v]
        if not sep or key not in KEYS or not vals:
            raise ValueError(f"--pcap {clause!r}: expected node=NAME, port=NODE>PEER or kind={','.join(kinds)}")
        if key in clauses:
            raise ValueError(f"--pcap: {key}= given twice; list its values in one clause ({key}=a,b)")
        clauses[key] = vals
    mask = 0
    for v in clauses.get("kind", kinds):
        if v not in kinds:
            raise ValueError(f"--pcap kind={v!r}: unknown frame kind; expected one of {', '.join(kinds)}")
        mask |= 1 << kinds.index(v)
    nodes = {name.split(">", 1)[0] for name in port_names}
    for key, known in (("node", nodes), ("port", set(port_names))):
        for v in clauses.get(key, []):
            if not fnmatch.filter(known, v):
                sample = ", ".join(sorted(known)[:6])
                raise ValueError(f"--pcap {key}={v!r} matches no {key} (e.g. {sample})")
    ports = [
        i for i, name in enumerate(port_names)
        if _matches(name.split(">", 1)[0], clauses.get("node")) and _matches(name, clauses.get("port"))
    ]
    return ports, mask


def _matches(name: str, patterns: list[str] | None) -> bool:
    return patterns is None or any(fnmatch.fnmatchcase(name, p) for p in patterns)


def enable(sim, spec: CaptureSpec) -> list[int]:
    """Turn the capture on in a `_core.Simulation` before it runs; returns the selected ports."""
    if spec.snaplen < 64:
        raise ValueError(f"--pcap-snaplen {spec.snaplen}: at least 64 bytes (a minimum Ethernet frame)")
    ports, kinds = select(spec.filter, sim.port_names())
    sim.enable_capture(ports, kinds, spec.snaplen, spec.max_bytes)
    return ports


@dataclass
class Capture:
    """A run's capture as the engine returned it (see `_core.Simulation.capture`)."""

    ports: list[str]  # names of the selected ports, in interface order
    port_ids: list[int]
    t_ps: np.ndarray
    port: np.ndarray
    orig_len: np.ndarray
    start: np.ndarray
    data: bytes
    snaplen: int
    bound_at_s: float | None
    missed: int

    @classmethod
    def from_simulation(cls, sim, port_ids: list[int]) -> "Capture | None":
        raw = sim.capture()
        if raw is None:
            return None
        names = sim.port_names()
        bound = raw["bound_at_ps"]
        return cls(
            ports=[names[i] for i in port_ids], port_ids=list(port_ids),
            t_ps=np.frombuffer(raw["t_ps"], "<u8"), port=np.frombuffer(raw["port"], "<u4"),
            orig_len=np.frombuffer(raw["orig_len"], "<u4"), start=np.frombuffer(raw["start"], "<u8"),
            data=raw["data"], snaplen=raw["snaplen"], bound_at_s=None if bound is None else bound / 1e12,
            missed=raw["missed"],
        )

    def __len__(self) -> int:
        return len(self.t_ps)

    def note(self) -> str | None:
        """A sentence saying where the size bound stopped the capture, if it did."""
        if self.bound_at_s is None:
            return None
        return (f"capture stopped at t = {self.bound_at_s:.9g} s: size bound reached "
                f"({len(self)} frames kept, {self.missed} later transmissions not captured)")

    def write(self, path: str | Path) -> Path:
        """Write the capture as pcapng: one interface per selected port, ns timestamps."""
        from dpkt import pcapng

        path = Path(path)
        iface = {p: i for i, p in enumerate(self.port_ids)}
        comment = self.note() or "cnsim capture (simulated time from 0)"
        shb = pcapng.SectionHeaderBlockLE(opts=[
            pcapng.PcapngOptionLE(code=pcapng.PCAPNG_OPT_COMMENT, data=comment.encode()),
            pcapng.PcapngOptionLE(code=pcapng.PCAPNG_OPT_SHB_USERAPPL, data=b"cnsim"),
            pcapng.PcapngOptionLE(code=pcapng.PCAPNG_OPT_ENDOFOPT),
        ])
        idbs = [
            pcapng.InterfaceDescriptionBlockLE(snaplen=self.snaplen, opts=[
                pcapng.PcapngOptionLE(code=pcapng.PCAPNG_OPT_IF_NAME, data=name.encode()),
                pcapng.PcapngOptionLE(code=pcapng.PCAPNG_OPT_IF_TSRESOL, data=bytes([TSRESOL_NS])),
                pcapng.PcapngOptionLE(code=pcapng.PCAPNG_OPT_ENDOFOPT),
            ])
            for name in self.ports
        ]
        with open(path, "wb") as f:
            pcapng.Writer(f, shb=shb, idb=idbs or None)
            ts_ns = self.t_ps // 1000
            data, start = self.data, self.start
            for i in range(len(self)):
                pkt = data[start[i]:start[i + 1]]
                ts = int(ts_ns[i])
                block = bytearray(bytes(pcapng.EnhancedPacketBlockLE(
                    iface_id=iface[int(self.port[i])], ts_high=ts >> 32, ts_low=ts & 0xFFFFFFFF, pkt_data=pkt)))
                # dpkt writes the original length equal to the captured one; a frame cut at the
                # snap length keeps its length on the wire (EPB field "Original Packet Length").
                struct.pack_into("<I", block, EPB_ORIGINAL_LENGTH, max(int(self.orig_len[i]), len(pkt)))
                f.write(block)
        return path


def dissector_path() -> Path:
    """The Wireshark Lua dissector shipped with cnsim (CN-TAG, CNM, BCN, cnsim's shim)."""
    return Path(__file__).parent / "wireshark" / "cnsim.lua"
