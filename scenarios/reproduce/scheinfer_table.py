#!/usr/bin/python3
"""The ScheInfer ladder's tables: speed-ups from `placesim run scenarios/reproduce/scheinfer.yaml
--json` on stdin, the thread ablation from scenarios/scheinfer/threads.yaml's JSON (the file
named as the argument). The command is at the top of results/reproduce/scheinfer.md.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import fmt, header, ms, ratio, read_runs, table, times  # noqa: E402

COMMAND = ("build/placesim run scenarios/scheinfer/threads.yaml --json -o /tmp/reproduce-scheinfer-threads.h5 "
           "> /tmp/reproduce-scheinfer-threads.json && build/placesim run scenarios/reproduce/scheinfer.yaml --json "
           "-o /tmp/reproduce-scheinfer.h5 | scenarios/reproduce/scheinfer_table.py "
           "/tmp/reproduce-scheinfer-threads.json > results/reproduce/scheinfer.md")
RUNGS = [("", "0 (default)", "Table I's fits, every kernel and copy launched from the host at 44 us"),
         (", launch: 0us", "experiment", "kernel launches free")]
MOE = ("mixtral-8x7b", "phimoe")
BASELINES = ("llamacpp-offload", "fiddler")  # Fiddler as its paper runs it: popularity profiled offline
ORACLE = "fiddler{popularity=step}"  # Fiddler placing by the step's own routing
LAYER = "scheinfer{launches=layer}"  # ScheInfer's Eq. 5 with the launch stream its layer shares
# ScheInfer's thread ablation: r_CG / (r_CC + r_CG) at r_GG = 0, by CPU threads (section V).
PAPER_RCG = {16: 0.18, 8: 0.25, 4: 0.42, 2: 0.71}

runs = read_runs()
with open(sys.argv[1]) as f:
    threads = read_runs(f)


def point(mem, rung, arch, phase):
    return runs[(f"[{{id: gpu0, memory: {mem}GB{rung}}}]", arch, phase)]


def speedup(p, baseline):
    """The baseline's makespan over ScheInfer's, None where either did not run."""
    return ratio(ms(p[baseline]), ms(p["scheinfer"]))


header(COMMAND, "ScheInfer: the slice-rate solver's gain, rung by rung",
       "ScheInfer's testbed A (section V-A) with 12 or 24 GB of GPU memory, a 1024-token prompt (prefill) and "
       "one token generated after it (decode), ms simulated; the speed-up is the baseline's time over "
       "ScheInfer's. ScheInfer reports 1.69-6.33x in prefill and 1.11-1.80x in decode over its baselines, the "
       "mixture-of-experts models included (section V). Fiddler places experts by the popularity it profiles "
       "offline (`popularity: profile`, placesim's default); \"Fiddler, step\" is the same placer ranking "
       "experts by the tokens this step routes to each, a placement that knows the routing in advance.")
rows = []
for rung, name, what in RUNGS:
    for mem in (12, 24):
        for arch in ("llama2-70b",) + MOE:
            for phase in ("prefill", "decode"):
                p = point(mem, rung, arch, phase)
                cells = [fmt(ms(p[k]), ".2f", p[k]["status"]) for k in ("scheinfer", LAYER) + BASELINES + (ORACLE,)]
                rows.append([name, f"{mem} GB", arch, phase] + cells +
                            [times(speedup(p, k)) for k in BASELINES + (ORACLE,)])
table(["rung", "GPU memory", "model", "phase", "ScheInfer", "ScheInfer, launches by layer", "llama.cpp", "Fiddler",
       "Fiddler, step", "over llama.cpp",
       "over Fiddler", "over Fiddler, step"], rows, right_from=4)


def span(rung, phases, archs, baseline):
    xs = [speedup(point(m, rung, a, ph), baseline) for m in (12, 24) for a in archs for ph in phases]
    xs = [x for x in xs if x is not None]
    return f"{min(xs):.2f}-{max(xs):.2f}x" if xs else "-"


rows = []
for rung, name, what in RUNGS:
    rows.append([name, what, span(rung, ["prefill"], ("llama2-70b",) + MOE, "llamacpp-offload"),
                 span(rung, ["prefill"], ("llama2-70b",) + MOE, "fiddler"),
                 span(rung, ["decode"], ("llama2-70b",), "fiddler"), span(rung, ["decode"], MOE, "llamacpp-offload"),
                 span(rung, ["decode"], MOE, "fiddler"), span(rung, ["decode"], MOE, ORACLE)])
rows.append(["paper", "measured on testbeds A-C", "1.69-6.33x", "1.69-6.33x", "1.11-1.80x", "1.11-1.80x", "1.11-1.80x",
             "-"])
table(["rung", "assumption", "prefill over llama.cpp", "prefill over Fiddler", "dense decode over Fiddler",
       "MoE decode over llama.cpp", "MoE decode over Fiddler", "MoE decode over Fiddler, step"], rows)


def copied(run):
    """The median over layers of r_CG / (r_CC + r_CG), ScheInfer's share of the weights kept off the
    GPU that it copies per use."""
    layers = run["choices"]["layers"]
    return statistics.median(l["cg"] / (l["cc"] + l["cg"]) if l["cc"] + l["cg"] > 0 else 0 for l in layers)


print("The thread ablation (scenarios/scheinfer/threads.yaml: LLaMA-2 70B INT4, 24 GB, decode, the CPU's GEMMs on "
      "2 .. 32 threads): the share of the weights off the GPU that ScheInfer copies per use, r_CG / (r_CC + r_CG), "
      "with r_GG held at 0 as the paper's ablation does (`resident: none`).\n")
counts = sorted(int(k[0]) for k in threads if k[1] == "decode")
rows = [["placesim"] + [f"{copied(threads[(str(n), 'decode')]['scheinfer{resident=none}']):.3f}" for n in counts],
        ["paper"] + [str(PAPER_RCG.get(n, "-")) for n in counts]]
table(["", *[f"{n} threads" for n in counts]], rows, right_from=1)


def ahead(rung, phases, archs):
    """Points where ScheInfer is faster than both baselines, and the points where all three ran."""
    ps = [point(m, rung, a, ph) for m in (12, 24) for a in archs for ph in phases]
    ran = [p for p in ps if all(ms(p[k]) is not None for k in ("scheinfer",) + BASELINES)]
    ahead_of_both = sum(ms(p["scheinfer"]) < min(ms(p[k]) for k in BASELINES) for p in ran)
    tied = sum(not ms(p["scheinfer"]) < min(ms(p[k]) for k in BASELINES) and
               abs(ms(p["scheinfer"]) - min(ms(p[k]) for k in BASELINES)) < 0.005 * ms(p["scheinfer"]) for p in ran)
    return ahead_of_both, tied, len(ran)


print("## Verdict\n")
counts = []
for what, phases, archs in [("prefill", ["prefill"], ("llama2-70b",) + MOE), ("dense decode", ["decode"], ("llama2-70b",)),
                            ("mixture-of-experts decode", ["decode"], MOE)]:
    n_ahead, n_tied, n = ahead("", phases, archs)
    counts.append(f"{what} {n_ahead} of {n}" + (f" ({n_tied} more within 0.5% of the faster)" if n_tied else ""))
print("The paper's orderings at rung 0, points where ScheInfer is ahead of both baselines: " + "; ".join(counts) + ".\n")
print("Reproduced under the paper's assumptions: partly. Rung 0 is the paper's setup: its testbed and Table I's "
      "fits, every kernel launched from the host at Table I's launch time.\n")
print("* **Prefill and dense decode: the ordering holds**; the spans are below the paper's (it measured three "
      "testbeds and more models and memories; results/scheinfer/testbeds.md has placesim's full grid).")
moe12 = [point(12, "", a, "decode") for a in MOE]
moe24 = [ms(point(24, "", a, "decode")[k]) for a in MOE for k in ("scheinfer",) + BASELINES + (ORACLE,)]
phi12, phi12_free = point(12, "", "phimoe", "decode"), point(12, ", launch: 0us", "phimoe", "decode")
print("* **Mixture-of-experts decode: ahead of Fiddler or tied; the reversal was Fiddler knowing the step's "
      "routing.** Placed by the tokens this step routes to each expert (\"Fiddler, step\"), Fiddler puts "
      "exactly the step's active experts on the GPU, which no offline profile can (the model's router is "
      "uniform, so every expert is equally popular): that column beats ScheInfer at 12 GB ("
      + ", ".join(times(speedup(p, ORACLE)) for p in moe12) + "), and placing by the profile, as Fiddler does, "
      "flips both (" + ", ".join(times(speedup(p, "fiddler")) for p in moe12) + "). At 24 GB every placer "
      f"sits at the host's launch bound ({min(moe24):.2f}-{max(moe24):.2f} ms: one token's step is bound by the "
      "kernel launches), so all tie.")
print("* **Against llama.cpp, Phi-3.5-MoE at 12 GB stays reversed, and the launches are why.** llama.cpp runs "
      f"its CPU layers wholly on the CPU, launching nothing for them, so its step ({ms(phi12['llamacpp-offload']):.2f} "
      "ms) is under the all-on-GPU launch bound; ScheInfer keeps attention and every GG slice on the GPU (its "
      "design: it places the FFN blocks), so its launches set its floor, and Eq. 5 prices each block with its own "
      "launch stream starting free, blind to attention's launches on the same stream. With launches free (the "
      f"experiment) ScheInfer is ahead ({ms(phi12_free['scheinfer']):.2f} ms against "
      f"{ms(phi12_free['llamacpp-offload']):.2f}).")
mix12, dense12 = point(12, "", "mixtral-8x7b", "decode"), point(12, "", "llama2-70b", "decode")
print("* **Eq. 5 with the shared launch stream built** (`{name: scheinfer, launches: layer}`, not the paper's: each "
      "FFN block's launch stream starts after its layer's other launches, attention, norms and adds, instead of "
      "free) **recovers part of the mixture-of-experts decode and none of the reversal**: at 12 GB Mixtral "
      f"{ms(mix12['scheinfer']):.2f} -> {ms(mix12[LAYER]):.2f} ms and Phi-3.5-MoE {ms(phi12['scheinfer']):.2f} -> "
      f"{ms(phi12[LAYER]):.2f} ms, the rates moving work to the CPU where a GPU slice's launches cost the step; "
      f"Phi-3.5-MoE stays behind llama.cpp ({ms(phi12['llamacpp-offload']):.2f} ms), since attention's own "
      "launches stay on the GPU in ScheInfer's design. Dense decode gets slower (LLaMA-2 70B at 12 GB "
      f"{ms(dense12['scheinfer']):.2f} -> {ms(dense12[LAYER]):.2f} ms): a block priced from its layer's launches "
      "charges them to every block, where in the step they overlap the layer before's CPU work. With launches free "
      "the two are the same plan.")
print("* **The experiment also shows a limit of ScheInfer's plans**: with launches free, several prompt plans go "
      "over GPU memory even with no FFN weight resident (infeasible above, the placer says so): the weights "
      "copied per use (CG) are fetched ahead of the kernels that read them and pile up on the GPU, which Eq. 14's "
      "budget, counting two layers' copies in flight, does not bound.")
print("* **Thread ablation: the direction holds, the size does not.** Fewer threads copy more of the off-GPU "
      "weights per use, as in the paper, but placesim copies more at every count. The paper profiled the CPU at "
      "each thread count; the preset scales one Table I fit through a contention curve, so the CPU's rate at "
      "few threads is the likely cause, not yet shown by a rung.")
