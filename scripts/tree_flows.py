#!/usr/bin/python3
"""Writes a seeded random flow set on a two-level tree: the set bench/bench_flows.cpp gives to
placesim's engine and to SimGrid side by side.

The tree: 512 hosts under 32 leaf switches (16 hosts each); each host has a 25 GB/s link to its
leaf and each leaf a 100 GB/s uplink to the spine, every link full duplex (each direction its
own capacity) with no latency. A flow goes host -> leaf [-> spine -> leaf] -> host between two
different random hosts, moves a whole number of bytes (1 MB to 100 MB, uniform) and starts at a
whole microsecond drawn uniformly from the first 400 ms. The offered load grows with the set:
10k flows offer about 1.25 TB/s to 3.2 TB/s of uplinks (a few hundred flows in flight), 30k
flows 3.75 TB/s and 50k flows 6.25 TB/s, past the uplinks' capacity, so thousands of flows pile
up in flight, all coupled through the uplinks.

Output (text): a header line
    tree-flows hosts H per_leaf P host_bw B uplink_bw U flows N
then one line per flow: "src dst bytes start_us".
"""
import argparse
import random
import sys

HOSTS, PER_LEAF = 512, 16
HOST_BW, UPLINK_BW = 25e9, 100e9
WINDOW_US = 400_000  # starts are drawn from [0, WINDOW_US)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flows", type=int, required=True, help="number of flows (>= 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--out", required=True, help="output file")
    a = ap.parse_args()
    if a.flows < 1:
        sys.exit("tree_flows.py: --flows must be >= 1")
    rng = random.Random(a.seed)
    lines = [f"tree-flows hosts {HOSTS} per_leaf {PER_LEAF} host_bw {HOST_BW:.0f} uplink_bw {UPLINK_BW:.0f} flows {a.flows}"]
    for _ in range(a.flows):
        src = rng.randrange(HOSTS)
        dst = rng.randrange(HOSTS - 1)
        dst += dst >= src
        lines.append(f"{src} {dst} {rng.randint(1_000_000, 100_000_000)} {rng.randrange(WINDOW_US)}")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
