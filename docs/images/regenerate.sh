#!/usr/bin/env bash
# Regenerates the README's Kiln Studio screenshots (docs/images/studio-*.png) with the headless
# twin: `kiln-studio FILE --panel NAME --select ITEM --screenshot PNG`, offscreen. The workloads
# are copied to a temporary directory, so no trace lands in the source tree.
#
#   docs/images/regenerate.sh [BUILD_DIR]     (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out="$root/docs/images"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=offscreen
export XDG_CONFIG_HOME="$work/config" # the user's saved layout and recent files stay out of it

shot() {
    local name=$1
    shift
    "$build/bin/kiln-studio" "$@" --size 1600x1000 --screenshot "$out/$name.png"
    echo "wrote docs/images/$name.png"
}

cp "$root/resources/workloads/graph_breaks.py" "$root/resources/workloads/mlp.py" \
    "$root/resources/workloads/transformer_block.py" "$work/"

# Graph breaks: Studio runs the example (F5) and steps (F8) to the second break: the ended and
# resumed graphs below the code.
shot studio-graph-breaks "$work/graph_breaks.py" --run --panel compiles --select break:2
# Recompiles: why entry 4/2 was compiled, the guards that failed for the older entries.
shot studio-recompiles "$work/graph_breaks.kiln" --panel guards --select compile:4/2

# Default against max-autotune on the bundled MLP (compiled, called 20 times): Studio's
# "Compare modes" runs both and brings the comparison to the front.
shot studio-compare "$work/mlp.py" --compare-modes
shot studio-config "$work/mlp.kiln" --panel config --select run:2
# A compiled training step (train_mlp.py): graph 1's forward and backward graphs in the Compiles
# tree, the forward's code and saved tensors, a backward kernel selected, forward and backward
# lanes on the timeline.
cp "$root/resources/workloads/train_mlp.py" "$work/"
"$build/bin/kiln" run "$work/train_mlp.py" --quiet >/dev/null
shot studio-training "$work/train_mlp.kiln" --layout kernels --select kernel:7 --graph-view forward
# The bundled transformer block's kernels: written attention, LayerNorms, GELU, products.
shot studio-kernels "$work/transformer_block.py" --run --panel kernels --select kernel:8
# A real PyTorch training run imported (File > Import PyTorch Trace, headless --import): the
# trimmed TORCH_TRACE log and its torch.profiler trace; graph 9's forward graph, the attention
# extern call selected with its measured times, the graph calls' forward and backward lanes.
fixtures="$root/tests/import/fixtures"
shot studio-import --import "$fixtures/cpu_train_default.trimmed.log" \
    --profile "$fixtures/cpu_train_default.profile.json" --import-to "$work/imported.kiln" \
    --layout kernels --select kernel:27 --graph-view forward
# The same run's graph break and recompile, with its source: the log records the workload at
# /home/user/workloads/gen_traces.py; Source > Locate Source File… pointed to our copy of it
# (written into the settings here, as the dialog does).
cp "$fixtures/gen_torch_traces.py" "$work/gen_traces.py"
key=$(printf %s /home/user/workloads/gen_traces.py | base64 -w0 | tr '+/' '-_' | tr -d '=')
mkdir -p "$XDG_CONFIG_HOME/Kiln"
printf '[importedSources]\n%s=%s\n' "$key" "$work/gen_traces.py" >"$XDG_CONFIG_HOME/Kiln/Kiln Studio.conf"
shot studio-import-break "$work/imported.kiln" --layout breaks --select break:1
rm -f "$XDG_CONFIG_HOME/Kiln/Kiln Studio.conf.lock"
printf '[importedSources]\n%s=%s\n' "$key" "$work/gen_traces.py" >"$XDG_CONFIG_HOME/Kiln/Kiln Studio.conf"
shot studio-import-recompile "$work/imported.kiln" --panel guards --select compile:0/1
