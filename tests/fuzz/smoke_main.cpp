// SPDX-License-Identifier: MIT
// The CI fuzz smoke: a libFuzzer target's LLVMFuzzerTestOneInput driven without libFuzzer, so
// the normal (GCC) build can run it. It replays every input of the target's corpus, then for
// the given number of seconds mutates corpus inputs at random (byte flips, insertions,
// deletions, duplicated ranges, splices of two inputs) and runs them. Unlike libFuzzer it has
// no coverage feedback and no sanitizers: it catches crashes, aborts and hangs (CTest's
// timeout) on inputs near the corpus. The input being run is kept in a file, so a crash leaves
// its reproducer behind.
//
//   fuzz_X_smoke CORPUS_DIR SECONDS [REPRO_FILE]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Input = std::string;

std::vector<Input> readCorpus(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::vector<Input> inputs;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return inputs;
}

class Mutator {
public:
    explicit Mutator(uint64_t seed)
        : m_rng(seed) {}

    Input mutate(const std::vector<Input>& corpus) {
        Input in = corpus[pick(corpus.size())];
        int steps = 1 + static_cast<int>(pick(8));
        for (int i = 0; i < steps; ++i)
            step(in, corpus);
        return in;
    }

private:
    size_t pick(size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(m_rng) : 0; }

    void step(Input& in, const std::vector<Input>& corpus) {
        // Bytes that matter to the targets' grammars, besides random ones.
        static const char kSpecial[] = "\n\t \\\"'#:()[]{},.=-+*/%<>!@^&|~0123456789\x7f\xc3\xff";
        char c = pick(2) ? kSpecial[pick(sizeof kSpecial - 1)] : static_cast<char>(pick(256));
        switch (pick(6)) {
        case 0: // flip a bit
            if (!in.empty()) in[pick(in.size())] ^= static_cast<char>(1u << pick(8));
            break;
        case 1: // insert a byte
            in.insert(in.begin() + static_cast<std::ptrdiff_t>(pick(in.size() + 1)), c);
            break;
        case 2: // delete a range
            if (!in.empty()) {
                size_t at = pick(in.size());
                in.erase(at, 1 + pick(std::min<size_t>(16, in.size() - at)));
            }
            break;
        case 3: // duplicate a range in place
            if (!in.empty()) {
                size_t at = pick(in.size());
                in.insert(at, in.substr(at, 1 + pick(std::min<size_t>(64, in.size() - at))));
            }
            break;
        case 4: // overwrite a byte
            if (!in.empty()) in[pick(in.size())] = c;
            break;
        default: { // splice with another input
            const Input& other = corpus[pick(corpus.size())];
            size_t cut = pick(in.size() + 1), from = pick(other.size() + 1);
            in = in.substr(0, cut) + other.substr(from);
            break;
        }
        }
        if (in.size() > (1u << 16)) in.resize(1u << 16);
    }

    std::mt19937_64 m_rng;
};

void run(const Input& in, const std::string& reproFile) {
    if (!reproFile.empty()) std::ofstream(reproFile, std::ios::binary | std::ios::trunc) << in;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(in.data()), in.size());
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR SECONDS [REPRO_FILE]\n", argv[0]);
        return 2;
    }
    std::vector<Input> corpus = readCorpus(argv[1]);
    if (corpus.empty()) {
        std::fprintf(stderr, "%s: no inputs in %s\n", argv[0], argv[1]);
        return 2;
    }
    std::string repro = argc > 3 ? argv[3] : "";
    for (const Input& in : corpus)
        run(in, repro);
    const uint64_t seed = std::random_device{}();
    std::printf("replayed %zu corpus inputs; mutating with seed %llu for %s s\n", corpus.size(),
                static_cast<unsigned long long>(seed), argv[2]);
    std::fflush(stdout);
    Mutator mutator(seed);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(std::atoi(argv[2]));
    long runs = 0;
    while (std::chrono::steady_clock::now() < end) {
        run(mutator.mutate(corpus), repro);
        ++runs;
    }
    std::printf("%ld mutated inputs ran without a crash\n", runs);
    if (!repro.empty()) std::filesystem::remove(repro);
    return 0;
}
