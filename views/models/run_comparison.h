// SPDX-License-Identifier: MIT
/// \file
/// Two runs of one workload side by side (default vs max-autotune, say): their kernels matched
/// by the graph they belong to and the graph nodes they compute, never by name, because a mode
/// changes the names (`extern_mm` becomes `kiln_tem_mm_…`) and the fusion groups (a template
/// swallows the epilogue that default mode ran as a separate pointwise kernel). Each comparison
/// row is "these kernels of A vs these kernels of B, covering the same nodes of the same graph".
#pragma once

#include "run_snapshot.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::views {

/// A graph's identity across runs of the same workload; see graphKeyOf in the .cpp for why
/// these fields and not the compile id or the graph's row id.
struct GraphKey {
    std::string function;    ///< the frame's function ("f", "torch_dynamo_resume_in_f_at_7")
    int32_t functionOrdinal; ///< among same-named frames of the run, by definition line
    int32_t compileIndex;    ///< the frame's cache entry
    int32_t graphInCompile;  ///< the graph's position among its compile's graphs
    /// A training graph's kernels: "aot_forward" or "aot_backward" (KernelRow::graphKind), so
    /// forward kernels are matched with forward ones and backward with backward ones (they
    /// compute gradients of the same nodes); empty otherwise.
    std::string pass;

    auto operator<=>(const GraphKey&) const = default;
};

/// A kernel's launches after its first (which pays for cold caches and lazy loading): how
/// many, and their spread. What a comparison trusts, when there are enough of them.
struct WarmTimes {
    int64_t count = 0;
    int64_t minNs = 0;
    int64_t medianNs = 0;
    int64_t p90Ns = 0;
    int64_t coldNs = 0; ///< the first launch
};

/// Warm launches a kernel needs before its times count as a measurement.
inline constexpr int64_t kMinWarmLaunches = 3;

/// One kernel of one side of a comparison row.
struct ComparedKernel {
    int64_t kernelId = 0;
    std::string name;
    std::string kind;
    int64_t launches = 0;
    int64_t totalNs = 0;
    int64_t medianNs = 0;
    /// The candidates max-autotune measured for it (empty when it was not autotuned).
    std::vector<trace::AutotuneChoiceRow> choices;
    WarmTimes warm;
};

/// The kernels of one run that cover a row's nodes.
struct ComparisonSide {
    std::vector<ComparedKernel> kernels; ///< largest total time first
    int64_t totalNs = 0;                 ///< sum of the kernels' launch totals
    int64_t medianNs = 0;                ///< sum of their per-call medians: one call of the group
    /// One warm call of the group: the sum of the kernels' warm medians, within the sums of
    /// their warm minimums and 90th percentiles.
    int64_t warmMedianNs = 0, warmLowNs = 0, warmHighNs = 0;

    bool present() const { return !kernels.empty(); }
    /// Every kernel has kMinWarmLaunches warm launches.
    bool measured() const;
    /// "extern_mm + kiln_poi_fused_mul_relu_1".
    QString names() const;
};

enum class MatchStatus { Matched, OnlyInA, OnlyInB };

/// "matched", "only in A", "only in B".
QString matchStatusName(MatchStatus status);

struct ComparisonRow {
    GraphKey graph;
    /// The graph nodes the row's kernels compute, in graph order (their names: the identity).
    std::vector<std::string> nodes;
    /// The same nodes as people read them ("net.0 (Linear)"; see nodeLabel).
    std::vector<std::string> nodeLabels;
    ComparisonSide a;
    ComparisonSide b;
    MatchStatus status = MatchStatus::Matched;
    /// The graph each side's kernels belong to (its graph id, as Studio and the command line
    /// name graphs); 0 for a side without kernels.
    int64_t graphIdA = 0, graphIdB = 0;

    /// "forward · graph 6 / graph 43": the function and each side's graph by its id.
    QString label() const;
    /// One call of \p side's kernels as the row compares them: the warm median when both
    /// sides are measured, else the median over all launches (first ones included); 0 for a
    /// side without kernels.
    int64_t perCallNs(const ComparisonSide& side) const;
    /// B − A of one call (perCallNs), the difference the ratio is of.
    int64_t deltaNs() const { return perCallNs(b) - perCallNs(a); }
    /// B/A of one call (perCallNs); empty unless both sides ran (A's time above zero).
    std::optional<double> ratio() const;
    /// The difference is larger than the noise: both sides measured and their warm ranges
    /// (minimum to 90th percentile) apart, and the runs differ in what they ran (see
    /// RunComparison::sameConfiguration). Only such a ratio is a result (Studio colours it).
    bool significant() const;
    bool sameConfiguration = false; ///< copied from the comparison
    /// "net.0 (Linear), relu, mul", the row's short name (chart categories, table).
    QString nodesText() const;
};

/// A compiled function's timed calls in a run that measured them (`kiln run --measure`:
/// events of category `measure`, one per call).
struct MeasuredCalls {
    std::string function;
    int64_t count = 0;
    int64_t minNs = 0, medianNs = 0, p90Ns = 0;
};

/// B/A of two functions' measured calls: their medians, and whether the difference is larger
/// than the noise (both have kMinWarmLaunches calls and their min-to-p90 ranges are apart).
struct MeasuredRatio {
    double ratio = 0;
    bool significant = false;
};
std::optional<MeasuredRatio> measuredRatio(const MeasuredCalls& a, const MeasuredCalls& b);

/// The same workload (its bytes), device, backend, mode and effective options (`config`).
bool sameConfiguration(const RunSnapshot& a, const RunSnapshot& b);

/// What one run cost, end to end.
struct RunTotals {
    std::optional<int64_t> wallNs; ///< run end − start; empty while the run has not ended
    int64_t kernelNs = 0;          ///< sum of every kernel launch
    int64_t compileNs = 0;         ///< sum of the compile durations
    int64_t kernelCount = 0;
    int64_t launchCount = 0;
    /// The compiles' kernels, and how many of them came from the kernel cache (in memory or on
    /// disk) rather than being built: whether the compile time is a cold or a warm one.
    int64_t compiledKernels = 0, cachedKernels = 0;
    /// Max-autotune's candidates, and how many were read from the tuning cache.
    int64_t tuningCandidates = 0, tunedFromCache = 0;
    /// The compiled functions the run measured, in the order it measured them (their calls
    /// pooled over the run's replicates, when it has any).
    std::vector<MeasuredCalls> measured;
    int runs = 1; ///< the run and its replicates
};

/// "3 of 3 from the cache (warm)", "0 of 3 (cold)", "1 of 3 (partly warm)"; empty for none.
QString cacheText(int64_t cached, int64_t of);

/// \p run's totals; the measured calls pool those of \p replicates too (the other figures are
/// the run's own).
RunTotals runTotals(const RunSnapshot& run, const std::vector<const RunSnapshot*>& replicates = {});

struct RunComparison {
    RunTotals a;
    RunTotals b;
    /// Both runs ran the same script with the same effective options on the same device: any
    /// difference between them is the machine's, never a result (not coloured).
    bool sameConfiguration = false;
    /// By graph, then by the position of the first covered node in the graph.
    std::vector<ComparisonRow> rows;
};

/// Matches \p a's kernels (the baseline) with \p b's. Every kernel of either run lands in
/// exactly one row.
RunComparison compareRuns(const RunSnapshot& a, const RunSnapshot& b);

/// One side of a comparison: a run, and runs of the same workload and configuration recorded
/// in turn with the other side's (Compare modes records A, B, A, B, A, B). The machine's speed
/// drifts between runs, by far more than within one (a matrix product 1.55x slower for tens of
/// seconds on a shared machine), so one run per side makes drift look like a result. The
/// replicates' warm launches and measured calls are pooled with the run's: the spread then
/// holds the drift, and a difference must be larger than it to be coloured. Rows, names and
/// totals are the run's own.
struct ComparedRuns {
    const RunSnapshot* run = nullptr;
    std::vector<const RunSnapshot*> replicates;
};
RunComparison compareRuns(const ComparedRuns& a, const ComparedRuns& b);

/// "#2 max-autotune · inductor · ok", how Studio names a run in pickers and column headers. A
/// run started without --backend records none: then the backend its compiles used, when
/// \p snapshot is given and has compiled something.
QString runLabel(const trace::RunRow& run, const RunSnapshot* snapshot = nullptr);

} // namespace kiln::views
