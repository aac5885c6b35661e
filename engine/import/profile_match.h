// SPDX-License-Identifier: MIT
/// \file
/// The inside of the profile import (profile_import.h), shared by its three files:
/// profile_reader.cpp reads the Chrome trace's events, profile_match.cpp matches them to a run's
/// graphs and kernels (this Matcher), profile_import.cpp reads the run from the trace
/// (RunState) and writes what the Matcher found. Not part of the import's API.
#pragma once

#include "import/payload_text.h"
#include "import/profile_import.h"

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::importer::profile_detail {

/// A kernels row the import adds.
struct NewKernel {
    int64_t kernelId = 0;
    std::string compileId;
    int32_t graphIndex = 0;
    int64_t graphId = 0;
    std::string name, kind, nodes, source, graphKind;
};

/// What a compiled graph's calls are matched against.
struct Target {
    std::string key;
    std::string compileId;
    int32_t graphIndex = 0;
    int64_t graphId = 0; ///< 0: none
    std::string graphKind;
    bool linked = false;                ///< from the run's output code (else made from the profile)
    std::vector<ExternCall> externs;    ///< its extern calls, in call order
    std::vector<int64_t> externKernels; ///< their kernel ids (once planned)
    std::map<std::string, int64_t> kernelsByName;  ///< its Inductor kernels
    std::map<std::string, int64_t> profileSites;   ///< profile-only: "op#n" -> kernel
    std::map<std::string, int64_t> profileKernels; ///< profile-only: GPU kernel name -> kernel
    int64_t calls = 0, totalNs = 0, externNs = 0;
};

struct Launch {
    int64_t kernelId;
    int64_t startNs, endNs; // run-relative
    std::string device, grid, block;
    int32_t registers = 0, sharedMemory = 0;
};

struct EventRow {
    std::string category, name, compileId;
    int64_t startNs, durationNs;
    std::string detail;
};

struct Unmatched {
    int64_t count = 0;
    double totalUs = 0;
    int64_t firstIndex = 0;
    std::string compileId;
};

/// The run the profile goes into, as the trace has it.
struct RunState {
    int64_t startedAtNs = 0;
    int64_t latestNs = 0; ///< the latest run-relative time anything was recorded at
    int64_t nextKernelId = 1;
    std::vector<std::unique_ptr<Target>> logGraphs; ///< one per output code, log order
    std::map<std::string, Target*> byKey;           ///< fx graph cache key -> output code
    std::map<std::string, std::vector<int64_t>> kernelsByName; ///< every kernel of the run
};

/// The profile's events matched against a run: what to write.
class Matcher {
public:
    Matcher(const Profile& profile, RunState& run, ProfileSummary& summary)
        : m_profile(profile)
        , m_run(run)
        , m_summary(summary) {}

    void match();

    std::vector<NewKernel> newKernels;
    std::vector<Launch> launches;
    std::vector<EventRow> events;
    std::map<std::string, Unmatched> unmatched; ///< "where\tname" -> what

private:
    void nest();
    int64_t startNs(const ProfileEvent& e) const;
    int64_t durationNs(const ProfileEvent& e) const { return std::llround(e.durUs * 1000.0); }
    Target& targetFor(size_t call);
    int64_t addKernel(Target& target, std::string name, std::string kind, std::string nodes,
                      std::string source);
    void matchCall(size_t call);
    static int64_t cppKernelOf(const Target& target, const std::string& op);
    /// The GPU activities launched from inside event \p i (by correlation), in time order.
    std::vector<size_t> gpuUnder(size_t i) const;
    void launchOf(int64_t kernelId, const std::vector<size_t>& gpu, size_t cpuEvent);
    void forget(const std::string& where, size_t i, const std::string& compileId);

    const Profile& m_profile;
    RunState& m_run;
    ProfileSummary& m_summary;
    int64_t m_offsetNs = 0;        ///< added to ts (ns) to make it run-relative
    std::vector<int64_t> m_parent; ///< per event, -1 for none (same pid and tid)
    std::vector<std::vector<size_t>> m_children;
    std::unordered_map<int64_t, std::vector<size_t>> m_gpuByCorrelation;
    std::vector<bool> m_gpuTaken;
    std::map<std::string, std::unique_ptr<Target>> m_profileTargets; ///< by key
    int32_t m_nextProfileGraph = 0;
};

} // namespace kiln::importer::profile_detail
