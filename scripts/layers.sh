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

Layer versions install side by side, and then every (version, module) run goes side by side
too, at most -j at a time, each in its own folder or environment; each run's hostcb gets
-j (cores / -j, at least 1) unless HOSTCB-RUN-ARGS give -j. summary.txt keeps the order of
the SPECs (or of the --wheels folders) and of each package's modules, whatever finished first.

Options:
  -j N|auto      runs side by side (default 1: one after another; auto: one per core)
  --out DIR      results folder (default layers-results)
  --hostcb PATH  the hostcb binary (default build/hostcb); its adapters are beside it
  --ready        name adapters LAYER:ENTRY (e.g. cupy:external_stream)
  --expectations FILE  known behaviour for every run (default the shipped
                 expectations/known-layer-bugs.jsonc; '' for none: --no-expectations)
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
jobs=1
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
    -j) jobs="${2:?-j needs a number}"; shift 2 ;;
    -j*) jobs="${1#-j}"; shift ;;
    --) shift; run_args=("$@"); break ;;
    -*) echo "layers.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) specs+=("$1"); shift ;;
  esac
done
if [ -z "$wheels" ] && [ ${#specs[@]} -eq 0 ]; then usage >&2; exit 2; fi
[ "$jobs" = auto ] && jobs="$(nproc 2>/dev/null || echo 1)"
case "$jobs" in '' | *[!0-9]* | 0) echo "layers.sh: -j '$jobs' is neither a number of runs (1 or more) nor auto" >&2; exit 2 ;; esac
if [ -n "$wheels" ] && [ ! -d "$wheels" ]; then echo "layers.sh: no folder $wheels" >&2; exit 2; fi
if [ ! -x "$hostcb" ]; then echo "layers.sh: no hostcb at $hostcb (build first, or --hostcb)" >&2; exit 2; fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
summary="$out/summary.txt"
: >"$summary"
venvs="$out/venvs"
modules_dir="$root/harness/adapters/python/hostcb_layers"
adapter_lib="$(dirname "$hostcb")/libhostcb_python_runtime.so"
notes="$out/notes"  # one file per step, numbered in plan order: summary.txt is them, in order
rm -rf "$notes" && mkdir -p "$notes"
step=0
per_run=$(( $(nproc 2>/dev/null || echo 1) / jobs ))
[ "$per_run" -ge 1 ] || per_run=1
hostcb_jobs=(-j "$per_run")
for arg in "${run_args[@]}"; do case "$arg" in -j | -j* | --jobs | --jobs=*) hostcb_jobs=() ;; esac; done

# note NUMBER LINE: a summary line of step NUMBER (echoed at once; in order in summary.txt).
note() { local n="$1"; shift; echo "$*" >&2; echo "$*" >>"$notes/$n"; }
bad() { touch "$notes/$1.bad"; }
# side_by_side: waits until fewer than -j steps run.
side_by_side() { while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done; }

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

# run_module N PACKAGE MODULE VERSION-LABEL PYTHON [SITE]: one module of PACKAGE through
# hostcb (step N), with SITE (the layer's installed folder) first on PYTHONPATH when given.
run_module() {
  local n="$1" package="$2" module="$3" label="$4" python="$5" site="${6:-}" adapter json rc
  local expectation_args=(--no-expectations)  # '' is none, not run's shipped default
  [ -n "$expectations" ] && expectation_args=(--expectations "$expectations")
  json="$out/$module-$label.json"
  rm -f "$json"
  if [ "$ready" = 1 ]; then adapter="$(ready_name "$module")"
  else adapter="$adapter_lib@module=hostcb_layers.$module,name=$module"; fi
  echo "layers.sh: $module ($package $label): $hostcb run --adapter $adapter --axis forward=$module" >&2
  HOSTCB_PYTHON="$python" PYTHONPATH="${site:+$site:}$root/harness/adapters/python${PYTHONPATH:+:$PYTHONPATH}" \
    "$hostcb" run --adapter "$adapter" --axis "forward=$module" --json "$json" \
    "${expectation_args[@]}" "${hostcb_jobs[@]}" "${run_args[@]}" \
    >"$out/$module-$label.log" 2>&1
  rc=$?
  if [ -s "$json" ]; then
    # The layer's own figure ("through MODULE: N scenarios: ..."), else the run's.
    local counts
    counts="$(grep -m1 -E "^ *through $module: " "$out/$module-$label.log" | sed 's/^ *//')"
    [ -n "$counts" ] || counts="$(tail -n 3 "$out/$module-$label.log" | grep -m1 -E '^[0-9]+ scenarios' || echo 'see the log')"
    note "$n" "RAN $module $package $label: hostcb exit $rc ($counts)"
    case "$rc" in 0 | 77) ;; *) bad "$n" ;; esac  # red, interrupted or worse: not a green night
  else
    note "$n" "NO-RESULTS $module $package $label: hostcb exit $rc and no JSON; $(grep -m1 -iE 'error|refused' "$out/$module-$label.log" || tail -n 1 "$out/$module-$label.log")"
    bad "$n"
  fi
}

# The runs to make once everything is installed: "PACKAGE LABEL PYTHON [SITE]" per layer.
layers=()
layer_steps=()
# add_layer N PACKAGE LABEL PYTHON [SITE]: the layer installed by step N, to run.
add_layer() { layer_steps+=("$1"); shift; layers+=("$*"); }

# make_venv DIR: a fresh venv, for a version pip installs from the network.
make_venv() {
  rm -rf "$1"
  python3 -m venv "$1"
}

installed_version() { "$1" -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$2" 2>/dev/null; }

# install SPEC N: a fresh venv with SPEC, or python3's own version; writes N.layer.
install_spec() {
  local spec="$1" n="$2" package version venv
  package="${spec%%==*}"
  venv="$venvs/${spec//[^A-Za-z0-9._-]/_}"
  if [[ "$spec" == *==* ]]; then
    version="${spec#*==}"
    if ! make_venv "$venv" >"$out/install-$package-$version.log" 2>&1 ||
      ! "$venv/bin/python" -m pip install --quiet "$spec" >>"$out/install-$package-$version.log" 2>&1; then
      note "$n" "INSTALL-FAILED $package $version: $(tail -n 1 "$out/install-$package-$version.log")"
      bad "$n"
      return
    fi
    echo "$package $version $venv/bin/python" >"$notes/$n.layer"
  else
    version="$(installed_version python3 "$package")"
    if [ -z "$version" ]; then note "$n" "INSTALL-FAILED $package: python3 has no $package"; bad "$n"; return; fi
    echo "$package $version $(command -v python3)" >"$notes/$n.layer"
  fi
}

# install_wheels FOLDER N: the layer package among FOLDER's wheels, into a folder of its own.
install_wheels() {
  local sub="$1" n="$2" name package="" version="" whl base dist site log
  name="$(basename "$sub")"
  for whl in "$sub"*.whl; do  # the layer package: the first wheel with a layer module
    [ -f "$whl" ] || continue
    base="$(basename "$whl")"
    dist="${base%%-*}"; dist="${dist//_/-}"
    if [ -n "$(modules_for "$dist")" ]; then package="$dist"; version="$(echo "$base" | cut -d- -f2)"; break; fi
  done
  if [ -z "$package" ]; then note "$n" "NO-MODULE $name: no wheel of a layer package in $sub"; bad "$n"; return; fi
  site="$venvs/site-$name"
  log="$out/install-$package-$version.log"
  rm -rf "$site"
  if ! python3 -m pip install --quiet --no-index --no-deps --no-compile --target "$site" "$sub"*.whl >"$log" 2>&1; then
    note "$n" "INSTALL-FAILED $package $version (from $sub): $(grep -m1 -E 'ERROR|No matching' "$log" || tail -n 1 "$log")"
    bad "$n"
    return
  fi
  echo "$package $version $(command -v python3) $site" >"$notes/$n.layer"
}

# 1. Every layer version installed, side by side.
installs=()
for spec in "${specs[@]}"; do
  step=$((step + 1)); installs+=("$step")
  side_by_side; install_spec "$spec" "$(printf %04d "$step")" &
done
if [ -n "$wheels" ]; then
  for sub in "$wheels"/*/; do
    [ -d "$sub" ] || continue
    step=$((step + 1)); installs+=("$step")
    side_by_side; install_wheels "$sub" "$(printf %04d "$step")" &
  done
fi
wait

# 2. Every module of every installed version through hostcb, side by side. A run's notes
# are numbered after its install's, so summary.txt reads in plan order.
for i in "${installs[@]}"; do
  n="$(printf %04d "$i")"
  [ -f "$notes/$n.layer" ] || continue
  read -r package version python site <"$notes/$n.layer"
  mods="$(modules_for "$package")"
  if [ -z "$mods" ]; then note "$n" "NO-MODULE $package $version: no layer module for this package"; bad "$n"; continue; fi
  k=0
  for module in $mods; do
    k=$((k + 1))
    side_by_side; run_module "$n.$(printf %02d "$k")" "$package" "$module" "$version" "$python" "$site" &
  done
done
wait

bad=0
: >"$summary"
for f in "$notes"/*; do
  case "$f" in *.bad) bad=1 ;; *.layer) ;; *) cat "$f" >>"$summary" ;; esac
done

# summary_note LINE: a line of the merge, last in summary.txt.
summary_note() { echo "$*" | tee -a "$summary"; }
shopt -s nullglob
jsons=()
for j in "$out"/*.json; do case "$(basename "$j")" in matrix.json) ;; *) jsons+=("$j") ;; esac; done
if [ ${#jsons[@]} -gt 0 ]; then
  if "$hostcb" report "${jsons[@]}" --markdown "$out/matrix.md" --html "$out/matrix.html" --json "$out/matrix.json"; then
    summary_note "MATRIX $out/matrix.md from ${#jsons[@]} results"
  else
    summary_note "MATRIX-FAILED hostcb report exit $?"; bad=1
  fi
else
  summary_note "MATRIX-NONE no layer produced results"; bad=1
fi
echo "layers.sh: summary in $summary" >&2
exit "$bad"
