#!/usr/bin/env bash
# Runs hostcb's families through real layers, one virtual environment per layer version, and
# merges the results into one matrix (hostcb report).
set -uo pipefail
usage() {
  cat <<'USAGE'
Usage: scripts/layers.sh [OPTIONS] SPEC... [-- HOSTCB-RUN-ARGS...]
       scripts/layers.sh [OPTIONS] --wheels DIR [-- HOSTCB-RUN-ARGS...]

Each SPEC is a layer package, with or without a version:
  cupy-cuda13x==14.2.0   a fresh venv, pip install of that version
  cupy-cuda13x           the version python3 already has (nothing installed): the GPU
                         image's own cupy or cuda-bindings
--wheels DIR             offline: one subfolder of DIR per version, holding that version's
                         wheels (and any dependencies python3 lacks); each is installed with
                         pip --no-index --target into a folder put first on PYTHONPATH, over
                         python3's own packages (a venv made from a venv's python3 would not
                         see that venv's packages)
Layer packages and the layer modules (harness/adapters/python/hostcb_layers) run for each:
  cupy-cuda13x, cupy-cuda12x  cupy_external_stream, cupy_add_callback, cupy_runtime
  numba-cuda                  numba_add_callback
  numba-cuda-mlir             numba_cuda_mlir_add_callback
  cuda-core                   cuda_core_graph_builder
  cuda-bindings               every cuda_bindings_*.py module there
For each layer version and module it runs
  build/hostcb run --adapter ADAPTER --axis forward=MODULE --json OUT/MODULE-VERSION.json ARGS
with HOSTCB_PYTHON set to the python that has the layer, then
  build/hostcb report OUT/*.json --markdown OUT/matrix.md --html OUT/matrix.html --json OUT/matrix.json
ADAPTER is the ready name LAYER:ENTRY with --ready, else
  build/libhostcb_python_runtime.so@module=hostcb_layers.MODULE,name=MODULE
OUT/summary.txt has one line per layer version and module: ran (with hostcb's exit code),
or why not (install failed, no JSON written). A layer that cannot be installed is a line
there and makes the exit code 1, and so does a run that went red (hostcb exit 1: a failure,
error or xpass the expectations do not list): with the shipped known layer bugs, known-broken
versions stay green (xfail), a regression or a fixed release (xpass) does not.

Options:
  --out DIR      results folder (default layers-results)
  --hostcb PATH  the hostcb binary (default build/hostcb); its adapters are beside it
  --ready        name adapters LAYER:ENTRY (e.g. cupy:external_stream)
  --expectations FILE  known behaviour for every run (default the shipped
                 expectations/known-layer-bugs.jsonc; '' for none)
  -h, --help     this text
Exit: 0 every layer installed and ran green (or nothing ran), 1 one did not, 2 usage.
USAGE
}

root="$(cd "$(dirname "$0")/.." && pwd)"
out="layers-results"
hostcb="$root/build/hostcb"
wheels=""
ready=0
expectations="$root/expectations/known-layer-bugs.jsonc"
specs=()
run_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --hostcb) hostcb="${2:?--hostcb needs a path}"; shift 2 ;;
    --wheels) wheels="${2:?--wheels needs a folder}"; shift 2 ;;
    --ready) ready=1; shift ;;
    --expectations) expectations="${2?--expectations needs a file (or '')}"; shift 2 ;;
    --) shift; run_args=("$@"); break ;;
    -*) echo "layers.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) specs+=("$1"); shift ;;
  esac
done
if [ -z "$wheels" ] && [ ${#specs[@]} -eq 0 ]; then usage >&2; exit 2; fi
if [ -n "$wheels" ] && [ ! -d "$wheels" ]; then echo "layers.sh: no folder $wheels" >&2; exit 2; fi
if [ ! -x "$hostcb" ]; then echo "layers.sh: no hostcb at $hostcb (build first, or --hostcb)" >&2; exit 2; fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
summary="$out/summary.txt"
: >"$summary"
venvs="$out/venvs"
modules_dir="$root/harness/adapters/python/hostcb_layers"
adapter_lib="$(dirname "$hostcb")/libhostcb_python_runtime.so"
bad=0

note() { echo "$*" | tee -a "$summary"; }

# The layer modules for a package name.
modules_for() {
  case "$1" in
    cupy-cuda1[0-9]x | cupy) echo cupy_external_stream cupy_add_callback cupy_runtime ;;
    numba-cuda) echo numba_add_callback ;;
    numba-cuda-mlir) echo numba_cuda_mlir_add_callback ;;
    cuda-core) echo cuda_core_graph_builder ;;
    cuda-bindings)
      for f in "$modules_dir"/cuda_bindings_*.py; do [ -f "$f" ] && basename "$f" .py; done ;;
  esac
}

# A module's ready name: its layer and entry (cupy_external_stream -> cupy:external_stream).
ready_name() {
  case "$1" in
    cuda_bindings_*) echo "cuda_bindings:${1#cuda_bindings_}" ;;
    cuda_core_*) echo "cuda_core:${1#cuda_core_}" ;;
    numba_cuda_mlir_*) echo "numba_cuda_mlir:${1#numba_cuda_mlir_}" ;;
    *) echo "${1%%_*}:${1#*_}" ;;
  esac
}

# run_layer PACKAGE VERSION-LABEL PYTHON [SITE]: every module of PACKAGE through hostcb,
# with SITE (the layer's installed folder) first on PYTHONPATH when given.
run_layer() {
  local package="$1" label="$2" python="$3" site="${4:-}" module adapter json rc mods
  mods="$(modules_for "$package")"
  if [ -z "$mods" ]; then note "NO-MODULE $package $label: no layer module for this package"; bad=1; return; fi
  for module in $mods; do
    json="$out/$module-$label.json"
    rm -f "$json"
    if [ "$ready" = 1 ]; then adapter="$(ready_name "$module")"
    else adapter="$adapter_lib@module=hostcb_layers.$module,name=$module"; fi
    echo "layers.sh: $module ($package $label): $hostcb run --adapter $adapter --axis forward=$module" >&2
    HOSTCB_PYTHON="$python" PYTHONPATH="${site:+$site:}$root/harness/adapters/python${PYTHONPATH:+:$PYTHONPATH}" \
      "$hostcb" run --adapter "$adapter" --axis "forward=$module" --json "$json" \
      ${expectations:+--expectations "$expectations"} "${run_args[@]}" \
      >"$out/$module-$label.log" 2>&1
    rc=$?
    if [ -s "$json" ]; then
      # The layer's own figure ("through MODULE: N scenarios: ..."), not the run's.
      note "RAN $module $package $label: hostcb exit $rc ($(grep -m1 -E "^ *through $module: " "$out/$module-$label.log" | sed 's/^ *//' || echo 'see the log'))"
      [ "$rc" = 1 ] && bad=1
    else
      note "NO-RESULTS $module $package $label: hostcb exit $rc and no JSON; $(grep -m1 -iE 'error|refused' "$out/$module-$label.log" || tail -n 1 "$out/$module-$label.log")"
      bad=1
    fi
  done
}

# make_venv DIR: a fresh venv, for a version pip installs from the network.
make_venv() {
  rm -rf "$1"
  python3 -m venv "$1"
}

installed_version() { "$1" -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$2" 2>/dev/null; }

for spec in "${specs[@]}"; do
  package="${spec%%==*}"
  venv="$venvs/${spec//[^A-Za-z0-9._-]/_}"
  if [[ "$spec" == *==* ]]; then
    version="${spec#*==}"
    if ! make_venv "$venv" >"$out/install-$package-$version.log" 2>&1 ||
      ! "$venv/bin/python" -m pip install --quiet "$spec" >>"$out/install-$package-$version.log" 2>&1; then
      note "INSTALL-FAILED $package $version: $(tail -n 1 "$out/install-$package-$version.log")"
      bad=1
      continue
    fi
  else
    version="$(installed_version python3 "$package")"
    if [ -z "$version" ]; then note "INSTALL-FAILED $package: python3 has no $package"; bad=1; continue; fi
    run_layer "$package" "$version" "$(command -v python3)"
    continue
  fi
  run_layer "$package" "$version" "$venv/bin/python"
done

if [ -n "$wheels" ]; then
  for sub in "$wheels"/*/; do
    [ -d "$sub" ] || continue
    name="$(basename "$sub")"
    # The layer package: the first wheel in the folder that has a layer module.
    package="" version=""
    for whl in "$sub"*.whl; do
      [ -f "$whl" ] || continue
      base="$(basename "$whl")"
      dist="${base%%-*}"; dist="${dist//_/-}"
      if [ -n "$(modules_for "$dist")" ]; then package="$dist"; version="$(echo "$base" | cut -d- -f2)"; break; fi
    done
    if [ -z "$package" ]; then note "NO-MODULE $name: no wheel of a layer package in $sub"; bad=1; continue; fi
    site="$venvs/site-$name"
    log="$out/install-$package-$version.log"
    rm -rf "$site"
    if ! python3 -m pip install --quiet --no-index --no-deps --no-compile --target "$site" "$sub"*.whl >"$log" 2>&1; then
      note "INSTALL-FAILED $package $version (from $sub): $(grep -m1 -E 'ERROR|No matching' "$log" || tail -n 1 "$log")"
      bad=1
      continue
    fi
    run_layer "$package" "$version" "$(command -v python3)" "$site"
  done
fi

shopt -s nullglob
jsons=()
for j in "$out"/*.json; do case "$(basename "$j")" in matrix.json) ;; *) jsons+=("$j") ;; esac; done
if [ ${#jsons[@]} -gt 0 ]; then
  if "$hostcb" report "${jsons[@]}" --markdown "$out/matrix.md" --html "$out/matrix.html" --json "$out/matrix.json"; then
    note "MATRIX $out/matrix.md from ${#jsons[@]} results"
  else
    note "MATRIX-FAILED hostcb report exit $?"; bad=1
  fi
else
  note "MATRIX-NONE no layer produced results"; bad=1
fi
echo "layers.sh: summary in $summary" >&2
exit "$bad"
