"""placesim plot: figures of placesim's results files, traces and validation files.

Run through `placesim plot KIND FILE... -o OUT.png|OUT.svg`, which checks every input first
(so a wrong file is a located error before any work) and finds this folder (see
app/cli/plot_script.hpp). Run directly, it trusts its inputs:

    /usr/bin/python3 scripts/plot pareto results/quickstart.h5 -o pareto.png

Kinds (one module each):
  speedup    geomean speed-up bars per placer at each value of each sweep axis, from what
             `placesim compare --json` prints (speedup.py)
  pareto     latency vs peak memory of every run, and the Pareto front (pareto.py)
  gantt      a Chrome trace of `placesim run --trace`: queues and links over time (gantt.py)
  predicted  the placers' predictions vs the simulated makespans (accuracy.py)
  measured   predicted vs measured, from `placesim validate` files (accuracy.py)
  latency-load  p99 TTFT and TPOT of served streams against the load (serving.py)
  ttft-cdf   the time to first token's distribution per served stream (serving.py)
The image format follows the output's extension (.png or .svg).
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(prog="placesim plot", description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["speedup", "pareto", "gantt", "predicted", "measured", "latency-load", "ttft-cdf"])
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--output", required=True, help="image to write (.png or .svg)")
    args = ap.parse_args()
    try:
        import h5py  # noqa: F401  (each kind's module imports what it uses)
        import matplotlib

        matplotlib.use("Agg")
    except ImportError as e:
        sys.exit(f"placesim plot: needs the Debian packages python3-matplotlib and python3-h5py ({e})")

    import accuracy
    import figure
    import gantt
    import pareto
    import serving
    import speedup

    if args.kind == "speedup":
        fig = speedup.plot(args.files[0])
    elif args.kind == "pareto":
        fig = pareto.plot(args.files)
    elif args.kind == "gantt":
        fig = gantt.plot(args.files[0])
    elif args.kind == "latency-load":
        fig = serving.plot_latency_load(args.files)
    elif args.kind == "ttft-cdf":
        fig = serving.plot_ttft_cdf(args.files)
    elif args.kind == "predicted":
        fig = accuracy.plot_predicted(args.files)
    else:
        fig = accuracy.plot_measured(args.files)
    figure.save(fig, args.output)


if __name__ == "__main__":
    main()
