"""placesim from Python (docs/python.md).

Each function runs the subcommand of the same name in this process and returns what
`placesim COMMAND ... --json` prints, as Python objects: run() the records of every run,
plan() the plan, simulate() the simulated run. Keyword options are the command's own long
options (`placesim COMMAND --help`), with _ for -: jobs=2, dry_run=True, output="x.h5".
`set` takes the --set overrides as a dict. Bad input raises placesim.InputError (a ValueError)
with the file, line and column the command line prints; Ctrl-C during a sweep raises
KeyboardInterrupt with the results file whole and resumable (resume=True).
"""

import json

from . import _placesim

InputError = _placesim.InputError
__version__ = _placesim.version


def _value(v):
    """A --set value as the scenario's YAML reads it: strings as written, the rest as JSON."""
    return v if isinstance(v, str) else json.dumps(v)


def _words(set=None, options=None):
    words = []
    for key, value in (set or {}).items():
        words += ["--set", f"{key}={_value(value)}"]
    for key, value in (options or {}).items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                words += [flag, str(item)]
        else:
            words += [flag, str(value)]
    return words


def _call(command, words):
    return json.loads(_placesim.call(command, [str(w) for w in words]))


def run(scenario, set=None, **options):
    """Every placer at every sweep point of `scenario`, as `placesim run`: the results file is
    written (default results/<name>.h5, or with `set` results/<name>@<overrides>.h5; output=
    chooses), and the answer is {"runs": [...]}, one record per run."""
    return _call("run", [scenario] + _words(set, options))


def plan(scenario, placer, set=None, **options):
    """One placer's plan at one sweep point (point=N), as `placesim plan`."""
    return _call("plan", [scenario, "--placer", placer] + _words(set, options))


def simulate(plan, scenario=None, set=None, **options):
    """A plan file simulated, as `placesim simulate --plan`: on a scenario's point (scenario=,
    point=, set=) or on hardware= and graph= files."""
    words = ["--plan", plan] + (["--scenario", scenario] if scenario else [])
    return _call("simulate", words + _words(set, options))


def compare(*files, **options):
    """Results files side by side, as `placesim compare` (baseline=, metric=)."""
    return _call("compare", list(files) + _words(None, options))


def results(path):
    """A results file's runs: a pandas DataFrame (nested fields as dotted columns, one row per run)
    when pandas is installed (Debian: python3-pandas), else a list of dicts."""
    runs = json.loads(_placesim.results(str(path)))["runs"]
    try:
        import pandas
    except ImportError:
        return runs
    return pandas.json_normalize(runs)
