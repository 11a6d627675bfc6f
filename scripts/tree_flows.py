#!/usr/bin/python3
"""Writes a seeded random flow set on a tree of hosts: the set bench/bench_flows.cpp gives to
placesim and to SimGrid side by side, as a flow file and, with --placesim DIR, as the files a
user gives `placesim simulate` (hardware, graph, plan).

Two trees, 512 hosts each, every link full duplex (each direction its own capacity) with no
latency:
  uniform  32 leaf switches of 16 hosts under one spine; 25 GB/s host links, 100 GB/s leaf
           uplinks. Every flow is held by the same kind of link: its host links while the
           uplinks have room, the uplinks once they fill (at 30k flows and more).
  mixed    8 pods of 8 leaf switches of 8 hosts under one core switch; host links of 12.5, 25
           and 50 GB/s in turn (host k has the (k mod 3)-th), 40 GB/s leaf uplinks, 160 GB/s pod
           uplinks (half of what a pod's leaves could send). Flows in flight are held by
           different links at once: slow host links, leaf uplinks, pod uplinks.
A flow goes up from its source host to the lowest switch above both ends and down to its
destination (a different random host), moves a whole number of bytes (1 MB to 100 MB, uniform)
and starts at a whole microsecond drawn uniformly from the first 400 ms. The offered load grows
with the set: 10k flows offer about 1.25 TB/s, 50k flows 6.25 TB/s, past the uplinks' capacity
on both trees, so thousands of flows pile up in flight, coupled through the uplinks.

Flow file (text): a line "flow-set links L flows N", L lines each a link's bandwidth in bytes/s,
then N lines "bytes start_us hop ...", a hop being a link index followed by + (crossed upward,
from its lower end) or - (downward).

With --placesim DIR: DIR/hardware.yaml (hosts h<k> as one-core CPUs, switches, links, and a
device `clock` linked to nothing), DIR/graph.json and DIR/plan.json. Flow f is an edge of its
bytes from op s<f> on its source host to op d<f> on its destination; s<f> waits for an edge of a
fixed time, the flow's start, from op `clock` (docs/formats.md: such an edge takes its time and
contends with nothing), and every op lasts 0 s. Each transfer has a queue of its own, so flows
between the same two hosts share the links as SimGrid's do instead of taking turns. The makespan `placesim simulate --hardware
DIR/hardware.yaml --graph DIR/graph.json --plan DIR/plan.json` prints is the last flow's end.
"""
import argparse
import json
import os
import random
import sys

HOSTS = 512
WINDOW_US = 400_000  # starts are drawn from [0, WINDOW_US)


# Per tree, its levels bottom up: (children per switch, switch name, bytes/s of a child's link
# up to it, by the child's index). The last level is one switch over all below it.
TREES = {
    "uniform": [(16, "leaf", lambda i: 25e9), (32, "spine", lambda i: 100e9)],
    "mixed": [(8, "leaf", lambda i: (12.5e9, 25e9, 50e9)[i % 3]), (8, "pod", lambda i: 40e9),
              (8, "core", lambda i: 160e9)],
}


class Tree:
    """Hosts under levels of switches; links[i] = (lower end, upper end, bytes/s)."""

    def __init__(self, kind):
        self.links = []
        self.up = {}      # host or switch -> its link to the switch above (the top has none)
        self.parent = {}  # host or switch -> the switch above it
        below = [f"h{h}" for h in range(HOSTS)]
        levels = TREES[kind]
        for level, (width, name, bw) in enumerate(levels):
            top = level == len(levels) - 1
            assert len(below) % width == 0 and (not top or len(below) == width)
            for i, node in enumerate(below):
                switch = name if top else f"{name}{i // width}"
                self.parent[node] = switch
                self.up[node] = len(self.links)
                self.links.append((node, switch, bw(i)))
            below = [name] if top else [f"{name}{j}" for j in range(len(below) // width)]

    def route(self, src, dst):
        """[(link, upward)] from host src to host dst."""
        up, down = [], []
        a, b = f"h{src}", f"h{dst}"
        while a != b:
            up.append((self.up[a], True))
            down.append((self.up[b], False))
            a, b = self.parent[a], self.parent[b]
        return up + down[::-1]


def write_placesim(tree, flows, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    switches = list(dict.fromkeys(sw for _, sw, _ in tree.links))
    with open(os.path.join(out_dir, "hardware.yaml"), "w") as f:
        f.write(f"name: tree-flows-{len(flows)}\n")
        f.write("description: the hosts and switches of scripts/tree_flows.py\n")
        f.write("templates:\n  host: {type: cpu, cores: 1, memory_bw: 100GB/s, fp32: 1TFLOPS}\n")
        f.write("devices:\n  - {id: clock, template: host}   # holds the op that starts every flow\n")
        for h in range(HOSTS):
            f.write(f"  - {{id: h{h}, template: host}}\n")
        for sw in switches:
            f.write(f"  - {{id: {sw}, type: switch}}\n")
        f.write("links:\n")
        for a, b, bw in tree.links:
            f.write(f"  - {{a: {a}, b: {b}, bw: {bw:.0f}}}\n")
    nodes = [{"name": "clock", "durations": {"clock": 0}}]
    edges, devices = [], {"clock": "clock"}
    starts = [[] for _ in range(HOSTS)]  # per source host, its flows by start
    ends = [[] for _ in range(HOSTS)]    # per destination host, its flows' d ops
    for i, (src, dst, size, start) in enumerate(flows):
        nodes.append({"name": f"s{i}", "durations": {f"h{src}": 0}})
        nodes.append({"name": f"d{i}", "durations": {f"h{dst}": 0}})
        edges.append({"src": "clock", "dst": f"s{i}", "time": start * 1e-6})
        edges.append({"src": f"s{i}", "dst": f"d{i}", "bytes": size})
        devices[f"s{i}"] = f"h{src}"
        devices[f"d{i}"] = f"h{dst}"
        starts[src].append((start, i))
        ends[dst].append(f"d{i}")
    queues = [{"name": "clock", "tasks": ["clock"]}]
    for h in range(HOSTS):
        if starts[h]:
            starts[h].sort()
            queues.append({"name": f"h{h}.clock", "tasks": [f"clock@h{h}"]})
            queues.append({"name": f"h{h}.starts", "tasks": [f"s{i}" for _, i in starts[h]]})
        if ends[h]:
            queues.append({"name": f"h{h}.ends", "tasks": ends[h]})
    queues += [{"name": f"flow{i}", "tasks": [f"s{i}@h{dst}"]} for i, (_, dst, _, _) in enumerate(flows)]
    with open(os.path.join(out_dir, "graph.json"), "w") as f:
        json.dump({"name": "tree-flows", "nodes": nodes, "edges": edges}, f, separators=(",", ":"))
    with open(os.path.join(out_dir, "plan.json"), "w") as f:
        json.dump({"placer": "tree-flows", "devices": devices, "queues": queues}, f, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flows", type=int, required=True, help="number of flows (>= 1)")
    ap.add_argument("--tree", choices=["uniform", "mixed"], default="uniform")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--out", required=True, help="flow file to write")
    ap.add_argument("--placesim", metavar="DIR", help="also write hardware.yaml, graph.json, plan.json here")
    a = ap.parse_args()
    if a.flows < 1:
        sys.exit("tree_flows.py: --flows must be >= 1")
    rng = random.Random(a.seed)
    tree = Tree(a.tree)
    flows = []
    for _ in range(a.flows):
        src = rng.randrange(HOSTS)
        dst = rng.randrange(HOSTS - 1)
        dst += dst >= src
        flows.append((src, dst, rng.randint(1_000_000, 100_000_000), rng.randrange(WINDOW_US)))
    lines = [f"flow-set links {len(tree.links)} flows {a.flows}"]
    lines += [f"{bw:.0f}" for _, _, bw in tree.links]
    for src, dst, size, start in flows:
        hops = " ".join(f"{link}{'+' if up else '-'}" for link, up in tree.route(src, dst))
        lines.append(f"{size} {start} {hops}")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    if a.placesim:
        write_placesim(tree, flows, a.placesim)


if __name__ == "__main__":
    main()
