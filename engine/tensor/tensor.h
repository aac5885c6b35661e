// SPDX-License-Identifier: MIT
/// \file
/// Tensor: a strided view (sizes, strides, offset, dtype) onto a shared Storage.
///
/// Semantics follow PyTorch: strides and offsets count elements, not bytes; a view shares its
/// base's storage, so writing through either is visible through both; a 0-dim tensor holds one
/// element. Tensor is a cheap handle (one pointer); copying it shares the same TensorImpl.
///
/// Autograd state rides on the TensorImpl (requires_grad, grad_fn, .grad); the graph's nodes
/// are declared in grad_node.h and computed by the autograd layer.
#pragma once

#include "support/ref_counted.h"
#include "tensor/device.h"
#include "tensor/dim_vector.h"
#include "tensor/dtype.h"
#include "tensor/storage.h"

#include <atomic>
#include <memory>
#include <span>
#include <string_view>

namespace kiln::tensor {

struct TensorOptions {
    DType dtype = DType::Float32;
    Device device{};
    bool requiresGrad = false;
};

class GradNode;
struct GradHooks;
class TensorImpl;

/// How a view was made, for the errors PyTorch raises when one is written in place.
enum class ViewCreation : uint8_t {
    Default,
    NoGrad,      ///< made with grad mode off
    MultiOutput, ///< one of the pieces of split, chunk or unbind
};

/// What a view op records on its result (PyTorch's view base): the tensor viewed (the root: a
/// view of a view records the first one's base) and the storage version the view's grad_fn
/// reflects. An in-place write through the view rebases the base's history onto the write
/// (autograd_views.cpp). Null base for tensors that are no such view (detach()'s alias too).
/// The base is counted in its autogradRefs: capture's liveness test does not take a tensor for
/// used because a view of it holds it for autograd (the view is the user).
struct ViewOrigin {
    ViewOrigin() = default;
    ViewOrigin(const ViewOrigin& other);
    ViewOrigin& operator=(const ViewOrigin& other);
    ~ViewOrigin();
    void setBase(Ref<TensorImpl> impl);

    Ref<TensorImpl> base; ///< set through setBase or a copy, never assigned directly
    uint32_t version = 0;
    ViewCreation creation = ViewCreation::Default;
    /// For MultiOutput: which piece, and the node name PyTorch's error names.
    uint32_t outputNr = 0;
    std::string_view creator;
};

class TensorImpl final : public AtomicRefCounted {
public:
    TensorImpl();
    ~TensorImpl() override; // out of line: GradNode is complete only in the files that use it

    Ref<Storage> storage;
    int64_t offset = 0;
    DimVector sizes;
    DimVector strides;
    DType dtype = DType::Float32;
    bool requiresGrad = false;
    /// A Python number wrapped for an op (`x + 1`): takes part in type promotion as a number.
    bool wrappedNumber = false;
    bool isParameter = false;
    /// The autograd node that produced this tensor (PyTorch's grad_fn); null for leaves.
    Ref<GradNode> gradFn;
    /// Which of gradFn's outputs this tensor is.
    uint32_t gradOutputNr = 0;
    /// `.grad` of a leaf that requires grad; null until a backward reaches it.
    Ref<TensorImpl> grad;
    /// A non-leaf's `.grad` once retain_grad() was called: its hook (on gradFn) holds this
    /// weakly, so a tensor that dies before backward leaves the hook nothing to write.
    std::shared_ptr<Ref<TensorImpl>> retainedGrad;
    /// A leaf's hooks (register_hook), run before its gradient accumulates.
    std::shared_ptr<GradHooks> leafHooks;
    /// References autograd nodes hold to keep this tensor for backward (SavedTensor): capture's
    /// liveness test counts who else holds a tensor, and these do not make it a live value.
    std::atomic<int32_t> autogradRefs{0};
    /// Set by the view ops (view, slicing, select, transpose, expand, split, ...).
    ViewOrigin view;
};

class Tensor {
public:
    Tensor() = default;
    explicit Tensor(Ref<TensorImpl> impl)
        : m_impl(std::move(impl)) {}

    /// A new contiguous tensor with uninitialised elements.
    static Tensor empty(IntList sizes, DType dtype, Device device = {});
    /// A view of `storage` with the given geometry (no checks beyond what the caller did).
    static Tensor view(Ref<Storage> storage, int64_t offset, DimVector sizes, DimVector strides,
                       DType dtype);

    bool defined() const { return static_cast<bool>(m_impl); }
    TensorImpl* impl() const { return m_impl.get(); }
    const Ref<TensorImpl>& implRef() const { return m_impl; }
    bool sameImpl(const Tensor& other) const { return m_impl == other.m_impl; }

    int64_t dim() const { return static_cast<int64_t>(m_impl->sizes.size()); }
    const DimVector& sizes() const { return m_impl->sizes; }
    const DimVector& strides() const { return m_impl->strides; }
    /// Size of a dimension; negative dims count from the end (IndexError when out of range).
    int64_t size(int64_t dim) const;
    int64_t stride(int64_t dim) const;
    int64_t numel() const;
    DType dtype() const { return m_impl->dtype; }
    Device device() const { return m_impl->storage->device(); }
    int64_t offset() const { return m_impl->offset; }
    const Ref<Storage>& storage() const { return m_impl->storage; }
    bool isContiguous() const;

    /// Host address of the first element (storage data plus offset), for the CPU kernels. Every
    /// CPU kernel reads and writes elements through here, so this is where a tensor in device
    /// memory is stopped: NotImplementedError instead of a host access to a device address.
    char* rawData() const {
        if (m_impl->storage->device().type != DeviceType::CPU) [[unlikely]]
            failHostAccess(m_impl->storage->device());
        return static_cast<char*>(m_impl->storage->data()) + m_impl->offset * itemSize(dtype());
    }
    /// Address of the first element on the tensor's own device (a CUDA device pointer for
    /// CUDA tensors), for device kernels and copies; never dereferenced on the host.
    void* devicePointer() const {
        return static_cast<char*>(m_impl->storage->data()) + m_impl->offset * itemSize(dtype());
    }
    template <typename T>
    T* data() const {
        return reinterpret_cast<T*>(rawData());
    }

    bool requiresGrad() const { return m_impl->requiresGrad; }
    /// The grad_fn's name ("AddBackward0"); empty for leaves.
    std::string_view gradFn() const;
    const Ref<GradNode>& gradNode() const { return m_impl->gradFn; }
    bool isWrappedNumber() const { return m_impl->wrappedNumber; }
    bool isParameter() const { return m_impl->isParameter; }

private:
    [[noreturn]] static void failHostAccess(Device device);

    Ref<TensorImpl> m_impl;
};

/// Contiguous (row-major) strides for the given sizes.
DimVector contiguousStrides(IntList sizes);
/// Product of sizes; throws RuntimeError for negative sizes (PyTorch's wording).
int64_t checkedNumel(IntList sizes);
/// Normalises a possibly negative dimension index; IndexError in PyTorch's wording otherwise.
int64_t wrapDim(int64_t dim, int64_t rank);

/// The dtype floating-point factories and Python floats default to (torch.set_default_dtype).
DType defaultFloatDType();
void setDefaultFloatDType(DType dtype);

/// Grad mode (torch.no_grad / torch.enable_grad). Thread-local like PyTorch's.
bool gradModeEnabled();
void setGradModeEnabled(bool enabled);

/// Sets grad mode for a scope and restores it after.
class GradModeGuard {
public:
    explicit GradModeGuard(bool enabled)
        : m_previous(gradModeEnabled()) {
        setGradModeEnabled(enabled);
    }
    ~GradModeGuard() { setGradModeEnabled(m_previous); }
    GradModeGuard(const GradModeGuard&) = delete;
    GradModeGuard& operator=(const GradModeGuard&) = delete;

private:
    bool m_previous;
};

/// Marks `out` as produced by autograd node `gradFnName` when grad mode is on and any input
/// requires grad. Every op calls this so printed tensors show `grad_fn=<...>` as PyTorch does.
void recordGradFn(Tensor& out, std::string_view gradFnName,
                  std::initializer_list<const Tensor*> inputs);
void recordGradFn(Tensor& out, std::string_view gradFnName, std::span<const Tensor* const> inputs);

} // namespace kiln::tensor
