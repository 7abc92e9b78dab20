"""Building htsim and linking cnsim's own drivers (scripts/peer/*.cpp) against it, for the scripts
that run cnsim beside htsim (scripts/peer_fattree.py, scripts/htsim_diff.py). HTSIM is a checkout of
csg-htsim the user points the script at: nothing is fetched and nothing of htsim is copied."""

import os
import subprocess
import sys
from pathlib import Path

PEER = Path(__file__).resolve().parent
# htsim's fat-tree objects, built in HTSIM/sim/datacenter, that the drivers link
OBJECTS = ["fat_tree_topology.o", "fat_tree_switch.o", "firstfit.o", "connection_matrix.o"]


def sh(cmd: list[str], **kw) -> str:
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def build_library(htsim: Path) -> Path:
    """`make` htsim's library and fat-tree objects; its `sim` directory."""
    sim = htsim / "sim"
    if not (sim / "datacenter" / "fat_tree_topology.h").exists():
        sys.exit(f"{htsim}: not an htsim checkout (no sim/datacenter/fat_tree_topology.h)")
    jobs = f"-j{os.cpu_count() or 1}"
    sh(["make", jobs, "-C", str(sim), "libhtsim.a"])
    sh(["make", jobs, "-C", str(sim / "datacenter"), *OBJECTS])
    return sim


def link_driver(sim: Path, name: str, out: Path) -> Path:
    """scripts/peer/NAME.cpp compiled and linked against htsim's library, as `out`."""
    sh(["g++", "-std=c++11", "-O2", "-g", f"-I{sim}", f"-I{sim / 'datacenter'}", str(PEER / f"{name}.cpp"),
        *[str(sim / "datacenter" / o) for o in OBJECTS], f"-L{sim}", "-lhtsim", "-o", str(out)])
    return out
