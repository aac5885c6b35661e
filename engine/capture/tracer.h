// SPDX-License-Identifier: MIT
/// \file
/// The tracer: records one frame's tensor operations into a graph while the frame runs.
///
/// Kiln traces by execution. The frame runs in the ordinary interpreter with the tracer
/// installed as its TraceRecorder; every tensor computed from the frame's inputs is a real
/// ("shadow") tensor that the tracer maps to the graph node that produces it. Inputs become
/// placeholders (with a TENSOR_MATCH guard) when first used; parameters and buffers of library
/// modules become get_attr nodes; library modules (nn.Linear, ...) become call_module nodes;
/// user functions and user modules' forward are inlined (the capture engine calls inline()).
///
/// When the frame needs a value the graph cannot provide, or calls something a graph cannot
/// hold, the tracer reports a graph break to its BreakHandler (the capture engine), which
/// either raises Unsupported (fullgraph), unwinds to the caller's call boundary (a break in an
/// inlined callee), skips the frame (a break in a loop), or compiles the graph so far and lets
/// the frame go on eagerly.
///
/// In-place operations on tensors that existed before the trace are undone before the compiled
/// graph runs (the graph applies them again), so shadow execution leaves no trace.
#pragma once

#include "capture/break_reason.h"
#include "capture/guards.h"
#include "capture/source.h"
#include "capture/sym_ints.h"
#include "graph/graph.h"
#include "lang/interpreter.h"

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace kiln::capture {

/// Unwinds the interpreter's C++ stack from a break inside an inlined callee up to the call in
/// the traced frame that entered it.
struct InlineBreak : lang::TraceUnwind {
    BreakReason reason;
};

/// Unwinds to the start of the trace: the frame runs eagerly (a break in a loop).
struct SkipFrame : lang::TraceUnwind {
    BreakReason reason;
    std::string message;
};

class Tracer;

class BreakHandler {
public:
    virtual ~BreakHandler() = default;
    /// A graph break in the traced frame itself: compile what was traced, uninstall the tracer.
    virtual void breakAtTop(Tracer& tracer, const BreakReason& reason) = 0;
    /// fullgraph=True: raise Unsupported in the script.
    [[noreturn]] virtual void raiseUnsupported(const BreakReason& reason) = 0;
    /// A break that skips the frame (in a loop, a with/try block): true when the handler
    /// ended the trace where it is, so the frame just goes on eagerly; false to unwind with
    /// SkipFrame and rerun the frame.
    virtual bool skipInPlace(const BreakReason& reason, const std::string& message) = 0;
};

struct TraceOptions {
    bool fullgraph = false;
    bool captureScalarOutputs = false;
    /// torch._dynamo.config.guard_nn_modules: guard what is read from nn.Modules' attributes.
    /// False (2.3's default): only a module reached from a local or global is guarded (identity
    /// and `training`); its attributes, submodules and what hangs from them are not.
    bool guardNnModules = false;
    /// Module classes whose instances are "unspecialized" (a compiled frame stored into an
    /// instance's attribute: Dynamo marks the class dynamic and then guards what is read from
    /// any instance as from a plain object). Owned by the capture engine, lives for the process.
    std::unordered_set<const lang::TypeObject*>* dynamicModuleClasses = nullptr;
    /// Which dims of an input tensor are dynamic (by source); empty: all static.
    std::function<std::vector<bool>(const Source&, const tensor::Tensor&)> dynamicDims;
    /// Whether an int input is a SymInt graph input in this trace (it changed between calls).
    std::function<bool(const Source&, int64_t)> dynamicInt;
};

/// A symbolic size of a dynamic input dimension ("s0").
struct SymbolInfo {
    std::string name;
    int64_t hint = 0; ///< the example's size
    SourcePtr source;
    int64_t dim = 0;
    bool specialized = false; ///< the trace read it as a Python int: the entry keeps it static
    /// Duck sizing: this dim had the size of an earlier symbol's when traced, so it shares that
    /// symbol (its name) and the entry guards that the two stay equal, as Dynamo does.
    bool duck = false;
};

/// A size an op computed from SymInts in a way the trace cannot write in its symbols
/// (`cache[:pos + 1]` of a static tensor): the graph reads it from the tensor at run time, and
/// it is static exactly when the symbols it came from are.
struct DerivedSize {
    std::string name; ///< the SymInt's text when the size is one ("s0 + 1"), else "d<k>"
    int64_t hint = 0;
    std::vector<std::string> roots; ///< the size symbols it is computed from
    /// Later results with a dim of this value take this name (symbolise): for sizes from
    /// SymInt arguments (x[:pos + 1]), not for the sizes deriveUnknownSizes marks, whose
    /// values are too common (32, 64) to tell them apart from static dims.
    bool matchByValue = true;
};

struct TracedTensor {
    int32_t node = -1;      ///< producing node; -1 while a tuple element is not yet extracted
    int32_t tupleNode = -1; ///< for elements of a tuple result: the tuple's node
    int32_t tupleIndex = 0;
    Ref<tensor::TensorImpl> keep; ///< keeps the address unique while the trace lives
};

class Tracer final : public lang::TraceRecorder {
public:
    Tracer(lang::Interpreter& interp, BreakHandler& handler, TraceOptions options);

    // --- set-up by the capture engine
    /// The frame being traced; evaluations in other frames are not memoised.
    void setTopFrame(lang::Frame* frame) { m_top = frame; }
    lang::Frame* topFrame() const { return m_top; }
    /// Registers the frame's locals as inputs: sources for every value, eager guards for
    /// scalars, containers and modules; tensors are guarded when first used.
    void registerInputs(const lang::FunctionCode& code, const std::vector<lang::Value>& slots);
    /// One more input at `source` (a resume point's stack value).
    void registerInput(const lang::Value& v, const SourcePtr& source);
    /// Starts the memo of `statement` with sub-expressions evaluated before the trace began.
    void seedMemo(const lang::Stmt* statement,
                  std::vector<std::pair<const lang::Expr*, lang::Value>> entries);
    int32_t inlineDepth() const { return m_inlineDepth; }
    /// Runs a call of a Python function from inside the trace (inlining it).
    lang::Value inlineCall(lang::FunctionObject& fn, const lang::CallArgs& args,
                           const lang::Value* self);
    /// Guards a called module's forward and forward-pre hook dicts: their sizes and hooks when
    /// they hold hooks (removing one recompiles), empty ones only when `includeEmpty`
    /// (torch._dynamo.config.skip_nnmodule_hook_guards = False): as PyTorch 2.11 observably
    /// does, a hook added to a module that had none is not noticed by default.
    void guardForwardHooks(const lang::Value& module, const SourcePtr& source, bool includeEmpty);
    /// The source of a module, or of a submodule of a module that has one (`<parent>.name`,
    /// registered from then on): a submodule reached through a replayed sub-expression of a
    /// resumed statement has no source of its own. Null when neither is known.
    const SourcePtr* moduleSourceOf(const lang::Value& module);
    /// A library function or module call recorded as one node (F.* in Python, nn.Linear).
    lang::Value recordLibraryCall(const lang::Value& callee, const std::string& target,
                                  graph::NodeOp op, const lang::CallArgs& args,
                                  const std::function<lang::Value()>& run);

    // --- results
    const std::vector<SymbolInfo>& symbols() const { return m_symbols; }
    /// Turns specialised symbols back into static sizes (guards and graph metadata).
    void applySpecializations();
    /// Names the symbols of dynamic int inputs the trace never used (call before symbols()).
    void nameUnusedIntSymbols();
    /// Adds a placeholder per free size symbol before its tensor's (call after
    /// applySpecializations); inputSources() and exampleInputs() include them.
    void liftSizeSymbols();
    /// The placeholder nodes in input order (Graph::hoistPlaceholders).
    std::vector<int32_t> placeholderOrder() const;
    graph::Graph& graph() { return m_graph; }
    GuardSet& guards() { return m_guards; }
    /// Settles which guards the entry installs: under guard_nn_modules=False, those on what was
    /// read through a specialized nn.Module move out of guards() into unguardedModuleReads().
    /// Call once, when the trace is complete.
    void settleModuleGuards();
    /// The guards 2.3 does not install (guard_nn_modules=False): a change to one of these
    /// values after compiling reuses the entry, as in PyTorch 2.3.
    const std::vector<Guard>& unguardedModuleReads() const { return m_unguardedModuleReads; }
    /// A compiled frame stores into an attribute of `module`: Dynamo restarts the trace with the
    /// module (and its class, outside __init__) unspecialized, so reads through it are guarded.
    void markModuleDynamic(const lang::Value& module);
    /// The tensors the rest of the frame may still use: traced values referenced from outside
    /// the tracer, in node order, plus those the memo holds.
    std::vector<int32_t> liveOutputs();
    /// The node of a traced tensor (materialising a tuple element), or -1.
    int32_t nodeOf(const lang::Value& tensor);
    const SourcePtr* sourceOf(const lang::Value& v) const;
    /// The placeholders' sources, in graph order.
    std::vector<SourcePtr> inputSources() const;
    /// Sub-expressions of the traced frame's current statement evaluated so far.
    const std::vector<std::pair<const lang::Expr*, lang::Value>>& memo() const { return m_memo; }
    bool memoReliable() const { return m_memoReliable; }
    /// Forgets the memo (a trace that ended at a return has no breaking statement).
    void clearMemo() { m_memo.clear(); }
    /// The example value (shadow tensor) a node produced in this trace.
    lang::Value valueOfNode(int32_t node) const;
    /// Puts back the data of pre-existing tensors changed in place by shadow execution.
    void undoInPlaceChanges();
    /// Puts back the stores into objects from before the frame that the trace made (its side
    /// effects), newest first: the frame is about to run again from its start.
    void undoStores();
    /// Puts back the stores noted since undo entry \p first (an inlined call that ended the
    /// graph before it: the call runs again as its own frame).
    void undoStoresSince(size_t first);
    /// Whether undoStores can put back every store so far (a list store by slice cannot).
    bool storesUndoable() const { return m_storesUndoable; }
    /// Makes the graph end here (drops nodes recorded from `size` on), for an inline break.
    void truncate(size_t size);
    bool hasOps() const { return m_graph.callCount() > 0; }
    /// The graph's example inputs (the placeholders' values).
    std::vector<lang::Value> exampleInputs() const;
    /// exampleInputs() as a backend sees them: a SymInt input's example is a torch.SymInt.
    std::vector<lang::Value> backendExampleInputs();
    // --- symbolic ints (sym_ints.h)
    /// Identifies this trace among all traces (SymInts remember the trace that made them).
    uint64_t serial() const { return m_serial; }
    /// True while a recorded op computes its shadow value (its arguments are being converted).
    bool insideRecordedOp() const { return m_unrecorded > 0; }
    /// Records int arithmetic on SymInts of this trace; the new node, or -1 when neither operand
    /// is one.
    int32_t recordSymArithmetic(lang::BinaryOperator code, const std::string& op,
                                const lang::Value& a, const lang::Value& b,
                                const lang::Value& result);
    /// A SymInt's Python value was needed: the sizes it comes from become static.
    void specializeSym(int32_t node);
    /// Python needs a SymInt's value (`why`: "bool", "<", ...): sizes specialise; a value
    /// computed from tensor data breaks the graph instead.
    void needSymValue(int32_t node, const std::string& why);
    /// Whether a SymInt node's value comes from tensor data (item()).
    bool isUnbacked(int32_t node) const;
    /// `a <op> b` with a SymInt of this trace on the left and an int on the right: guarded as a
    /// comparison of the symbols (true) when the SymInt's expression is known, else false.
    bool guardSymCompare(lang::CompareOperator op, const lang::Value& a, const lang::Value& b,
                         bool result);
    /// The source of a placeholder node (an int input), or null.
    const SourcePtr* placeholderSource(int32_t node) const;
    /// tensor.item() recorded under capture_scalar_outputs: a SymInt/SymFloat of the value.
    lang::Value recordItem(const lang::Value& tensor, const lang::Value& value);

    /// Records a change of grad mode since the last op (at the end of a trace: back to the mode
    /// the frame ends in).
    void recordGradMode();
    /// Stops recording: the interpreter's recorder is cleared.
    void uninstall();
    bool installed() const;
    void install();

    // --- TraceRecorder
    bool isTraced(const lang::Value& v) const override;
    lang::Value callNative(lang::NativeFunctionObject& fn, const lang::CallArgs& args) override;
    lang::Value callOperator(lang::OperatorCall call, uint8_t code,
                             std::span<const lang::Value> args,
                             const std::function<lang::Value()>& compute) override;
    void needValue(const lang::Value& tensor, lang::TensorValueUse use) override;
    void sideEffect(const std::string& builtin, const lang::CallArgs& args) override;
    void readGlobal(lang::Symbol name, const lang::Value& value) override;
    void readAttribute(const lang::Value& object, lang::Symbol name,
                       const lang::Value& value) override;
    void readItem(const lang::Value& container, const lang::Value& key,
                  const lang::Value& value) override;
    lang::Value mutation(const lang::Value& object, const char* what, const lang::Value& key,
                         const lang::Value& value) override;
    void outerNameStore(lang::ModuleObject* module, lang::Symbol name,
                        lang::CellObject* cell) override;
    /// Dynamo 2.3's STORE_FAST: a tensor stored to a local names its node after it.
    void localStore(lang::Symbol name, const lang::Value& value) override;
    /// The renames made so far, to take back those an aborted inline call made.
    struct NameMark {
        size_t renames = 0;
        size_t pending = 0;
    };
    NameMark nameMark() const { return {m_graph.renameMark(), m_pendingNames.size()}; }
    void undoNamesSince(const NameMark& mark);
    /// A placeholder just made for `impl` takes the locals it was stored to before.
    void applyPendingNames(tensor::TensorImpl* impl, int32_t node);
    /// A generator made before the trace began cannot be run back: the frame no longer reruns.
    void resumingGenerator(uint64_t serial) override {
        if (serial <= m_generatorsBefore) m_storesUndoable = false;
    }
    /// An attribute or item stored into an object that existed before the trace: replayed
    /// after the graph on every call that reuses the entry (Dynamo's side effects).
    struct SideEffect {
        enum class Kind : uint8_t { Attribute, Item, Append };
        Kind kind = Kind::Attribute;
        SourcePtr target;
        lang::Value key; ///< attribute name (str) or item key
        lang::Value value;
    };
    const std::vector<SideEffect>& sideEffects() const { return m_sideEffects; }
    void evaluated(const lang::Frame& frame, const lang::Expr& expr,
                   const lang::Value& value) override;

    /// Ends the trace with a graph break (or an error under fullgraph); returns when the frame
    /// may go on eagerly.
    void graphBreak(BreakKind kind, std::string text);
    void mutationBreak(const lang::Value& object, const char* what);
    /// An attribute store on an nn.Module that its __setattr__ handles as a plain store.
    bool moduleStoresPlainly(const lang::Value& module, const lang::Value& name,
                             const lang::Value& value);
    /// Whether a store into a module attribute is replayed after the graph (false: it breaks).
    bool replaysModuleStore(const lang::Value& object, const lang::Value& name) const;
    bool isContainerMutator(const lang::NativeFunctionObject& fn, const lang::CallArgs& args) const;
    void containerMutation(const lang::NativeFunctionObject& fn, const lang::CallArgs& args);
    /// Replaces SymInts among the arguments of a call that runs eagerly by their values.
    void concretizeArgs(const lang::CallArgs& args);
    /// Objects that predate the frame but have no source (closure values, other modules'
    /// globals, what is read from them): stores into them break the graph.
    void noteForeign(const lang::Value& v);
    bool isForeign(const lang::Value& v) const;

private:
    void registerSource(const lang::Value& v, const SourcePtr& source, int depth);
    /// A dynamic int input: a SymInt placeholder, guarded by its type and `2 <= value`.
    lang::Value intPlaceholder(const lang::Value& v, const SourcePtr& source);
    void guardValue(const lang::Value& v, const SourcePtr& source);
    /// `subject`: the source whose path decides readThroughModules (the guarded source unless
    /// the guard is part of a module's own guard, as `training` is).
    void addGuard(Guard guard, const SourcePtr& subject = nullptr);
    /// The modules among the values `source` is read through (its bases, not itself).
    std::vector<const void*> modulesAbove(const SourcePtr& source) const;
    bool isSpecializedModule(const void* module) const;
    /// Specializes a size symbol that `op` broadcasts against a static size (Dynamo's Eq guard).
    void specializeBroadcastSymbols(const graph::Node& op);
    /// Whether no size symbol reaches the node (its sizes are static in Dynamo too).
    bool symbolFree(int32_t node);
    graph::Arg argOf(const lang::Value& v);
    int32_t placeholderFor(const lang::Value& tensor, const SourcePtr& source);
    int32_t constantTensorNode(const lang::Value& tensor);
    int32_t addNode(graph::Node node);
    void registerResult(const lang::Value& result, int32_t node);
    void noteInPlace(const lang::Value& target);
    bool argsTraced(const lang::CallArgs& args) const;
    graph::ValueMeta metaOf(const lang::Value& v) const;
    /// A metadata read (size, shape, numel, len) of a traced tensor: sizes that are symbolic
    /// come back as SymInts; reads that need every size specialise them.
    lang::Value metadataRead(const lang::NativeFunctionObject& fn, const lang::CallArgs& args,
                             lang::Value result);
    /// A SymInt for a symbolic dim of a traced tensor: a new x.size(dim) node, or with
    /// `wholeSize` (an x.size() node) an operator.getitem of it.
    lang::Value symbolicSize(int32_t tensorNode, int64_t dim, int32_t wholeSize);
    /// An x.size() node (a torch.Size), or x.size(dim).
    int32_t sizeNode(int32_t tensorNode, std::optional<int64_t> dim);
    /// A torch.Size([...]) node for a torch.Size with SymInts that has none (x.shape[-2:]).
    int32_t sizeConstruction(const lang::Value& size);
    /// operator.getitem(size, dim) of an x.size() node.
    int32_t sizeItemNode(int32_t wholeSize, int64_t dim, const graph::Dim& size);
    /// The getitem node of a static item, which nothing reads (it only takes its name).
    void staticSizeItem(int32_t wholeSize, int64_t dim, int64_t value);
    /// "2*s0", "s0 + 1": how a SymInt node's value depends on the symbols.
    std::string symbolicText(lang::BinaryOperator code, const lang::Value& a, const lang::Value& b);
    /// SymInts of this trace inside a constant argument (a slice bound) lose their symbol.
    void specializeEmbedded(const lang::Value& v, int depth = 0);
    bool holdsSymInt(const lang::Value& v) const;
    /// A recorded native run on the values of the SymInts among its arguments.
    lang::Value runOnValues(lang::NativeFunctionObject& fn, const lang::CallArgs& args);
    /// A Python operator applied to the values of SymInt operands (for tensor operators).
    lang::Value operateOnValues(lang::OperatorCall call, uint8_t code,
                                std::span<const lang::Value> args);
    void newSymbol(const SourcePtr& source, int64_t dim, int64_t hint);
    std::string nextSymbolName() const;
    /// The trace uses SymInt `node`: a dynamic int input's symbol takes its name now.
    void useSymInt(int32_t node);
    /// `v` as a SymInt of this trace (used from here on), or nullopt.
    std::optional<SymIntView> ownSymInt(const lang::Value& v);
    /// The unspecialised size symbol a new dim of size `hint` shares (duck sizing), or null.
    const SymbolInfo* duckSymbol(int64_t hint) const;
    const SymbolInfo* symbolInfo(const Source& source, int64_t dim) const;
    std::string symbolFor(const Source& source, int64_t dim) const;
    /// Names the dims of `meta` after the symbol whose example size they equal (when exactly
    /// one symbol, input or derived, has that size).
    void symbolise(graph::ValueMeta& meta) const;
    /// After op `node` ran with SymInts among `args`: the dims of its tensor result that depend
    /// on them become derived sizes (for getitem, the dims its symbolic slices produce; for
    /// other ops, dims equal to a SymInt's value), so that reading them reads the run's value.
    void deriveSizes(int32_t node, std::span<const lang::Value> args, bool getItem);
    /// `meta` is the result of `producer` (its own, or an item of its tuple): a size that
    /// did not symbolise, of an op that reads symbolic sizes, and that is neither a size of
    /// the op's inputs, nor a number among its arguments, nor at a position where the first
    /// input (of the same rank) is static (max_pool2d's (s0 - 2)//2 + 1, x.view(-1)'s 2*s0)
    /// depends on symbols in a way the trace cannot write: a derived size, read at run time,
    /// never a constant of the graph.
    void deriveUnknownSizes(graph::ValueMeta& meta, const graph::Node& producer);
    /// Whether a size symbol (or a symbol a derived size came from) is specialised.
    bool specializedSymbol(const std::string& symbol) const;
    /// Ne(s, n) for each `[:s]` of a SymInt s over a static dim of size n (s != n when traced).
    void guardPartialSlices(const tensor::Tensor& input, const lang::Value& index);
    /// The dims of x[index] that a slice holding a SymInt produces; nullopt when the index has
    /// tensors or lists in it.
    std::optional<std::vector<int64_t>> symbolicSliceDims(int64_t inputDims,
                                                          const lang::Value& index) const;
    const DerivedSize* derivedSize(const std::string& name) const;
    BreakReason makeReason(BreakKind kind, std::string text) const;
    void setSourceInfo(graph::Node& node) const;
    lang::Value runUnrecorded(const std::function<lang::Value()>& run);
    /// After a call flagged inplace that returned its first argument: that tensor is the node.
    void rebindWritten(const lang::CallArgs& args, const lang::Value& result, int32_t node);

    lang::Interpreter& m_interp;
    BreakHandler& m_handler;
    TraceOptions m_options;
    lang::Frame* m_top = nullptr;
    int32_t m_inlineDepth = 0;
    graph::Graph m_graph;
    GuardSet m_guards;
    std::unordered_set<std::string> m_guarded;
    std::unordered_map<tensor::TensorImpl*, TracedTensor> m_traced;
    /// torch.Size values with symbolic items this trace made (x.shape): passed whole to an op,
    /// one is its x.size() node, as in Dynamo. The value keeps the tuple alive.
    std::unordered_map<const lang::Object*, std::pair<lang::Value, int32_t>> m_sizeTuples;
    std::unordered_map<tensor::TensorImpl*, SourcePtr> m_tensorSources;
    /// Per local slot: its value at the start of the trace, guarded when first read.
    std::vector<std::pair<lang::Value, SourcePtr>> m_pendingGuards;
    /// Guards made at the frame's entry for a local (a dynamic int's), by slot: placed at the
    /// line that first reads it.
    std::map<size_t, std::vector<size_t>> m_entryGuards;
    /// Further sources of an input tensor seen at more than one (guarded when it is used).
    std::unordered_map<tensor::TensorImpl*, std::vector<SourcePtr>> m_tensorAliases;
    /// Locals an input was stored to before it became a placeholder: its node takes each
    /// name in turn when it is made (placeholderFor), as if it had been renamed then.
    std::vector<std::pair<tensor::TensorImpl*, std::string>> m_pendingNames;
    std::unordered_map<const lang::Object*, SourcePtr> m_objectSources;
    std::vector<lang::Value> m_sourcedObjects; ///< keeps sourced objects' addresses unique
    /// The object at each source registered for one (modulesAbove walks a source's bases).
    std::unordered_map<const Source*, std::pair<SourcePtr, lang::Value>> m_sourceValues;
    std::unordered_set<const void*> m_dynamicModules; ///< stored into by this frame
    std::vector<Guard> m_unguardedModuleReads;
    std::unordered_map<int32_t, bool> m_symbolFree; ///< symbolFree's answers
    std::unordered_map<tensor::TensorImpl*, std::vector<bool>> m_dynamicDims;
    /// Keeps t's data and version counter for undoInPlaceChanges.
    void saveForUndo(const tensor::Tensor& t);
    struct InPlaceUndo {
        tensor::Tensor target;
        tensor::Tensor saved; ///< its data before the trace wrote it
        uint32_t version = 0; ///< its version counter then
    };
    std::vector<InPlaceUndo> m_undo;
    std::unordered_set<tensor::TensorImpl*> m_undoSaved;
    std::vector<std::pair<const lang::Expr*, lang::Value>> m_memo;
    const lang::Stmt* m_memoStatement = nullptr;
    bool m_memoReliable = true;
    int32_t m_constantCount = 0;
    struct PlaceholderRecord {
        int32_t node;
        lang::Value value;
        SourcePtr source;
    };
    std::vector<PlaceholderRecord> m_placeholders;
    std::unordered_set<tensor::TensorImpl*> m_moduleTensors; ///< parameters/buffers read
    std::vector<SymbolInfo> m_symbols;
    std::vector<DerivedSize> m_derivedSizes;
    bool m_installed = false;
    std::vector<SideEffect> m_sideEffects;
    /// What each side effect replaced: the attribute's, the item's or the list length's value
    /// before it (absent: `existed` false).
    struct StoreUndo {
        enum class Kind : uint8_t {
            Attribute,
            DictItem,
            ListItem,
            ListLength,
            ListContents,
            DictContents,
            Global,
            Cell
        };
        Kind kind = Kind::Attribute;
        lang::Value object;
        lang::Value key;   ///< Attribute, Global: the name (a str); DictItem: the key
        int64_t index = 0; ///< ListItem: the position; ListLength: the length
        bool existed = false;
        lang::Value old;
        std::vector<lang::Value> items; ///< ListContents: the items; DictContents: key, value, ...
    };
    std::vector<StoreUndo> m_storeUndo;
    bool m_storesUndoable = true;
    uint64_t m_generatorsBefore = 0; ///< generators the interpreter had made when the trace began
    void noteStore(const lang::Value& object, const lang::Value& key, bool attribute);
    /// A list or dict method is about to change `container` (`grows`: only appends to it).
    void noteContainerChange(const lang::Value& container, bool grows);
    std::unordered_set<const lang::Object*> m_foreign;
    bool m_gradMode = true; ///< grad mode of the last recorded op
    uint64_t m_serial = 0;
    int32_t m_unrecorded = 0;
    /// Per SymInt node: the size symbols it is computed from.
    std::unordered_map<int32_t, std::vector<std::string>> m_symRoots;
    /// Dynamic int inputs the trace has not used yet: placeholder node -> stand-in symbol name.
    /// Dynamo realizes an input when an op first uses it, so symbols are numbered in that
    /// order (f: `t * k` makes t's size s0; g: `t * torch.arange(k)` makes k s0).
    std::unordered_map<int32_t, std::string> m_unusedIntSymbols;
    /// Placeholder node -> when the trace first used the input: the graph's input order.
    std::unordered_map<int32_t, size_t> m_inputUseOrder;
    std::unordered_set<std::string> m_unbacked;         ///< symbols of values read from tensor data
    std::unordered_map<int32_t, SymExprPtr> m_symExprs; ///< SymInt node -> its value from inputs
};

} // namespace kiln::capture
