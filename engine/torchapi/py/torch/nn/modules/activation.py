# torch.nn.modules.activation: the activation layers, and MultiheadAttention as PyTorch 2.3
# (its slow path only: the fast path gives the same results).
import math
from torch._kiln import Parameter
import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.linear import NonDynamicallyQuantizableLinear
from torch.nn.modules.module import Module


class _Activation(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ReLU(_Activation):
    def forward(self, input):
        return F.relu(input, inplace=self.inplace)


class SiLU(_Activation):
    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace_str}"


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Sigmoid(Module):
    def forward(self, input):
        return torch.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return torch.tanh(input)


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, input):
        return F.log_softmax(input, self.dim)


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    # F._canonical_mask: a bool mask becomes 0 where False and -inf where True.
    if mask is None:
        return None
    is_float = torch.is_floating_point(mask)
    if mask.dtype != torch.bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        import warnings
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                      "Use same type for both instead.", stacklevel=2)
    if not is_float:
        mask = torch.zeros_like(mask, dtype=target_type).masked_fill(mask, float("-inf"))
    return mask


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == embed_dim, "embed_dim must be divisible by num_heads"
        fk = {"device": device, "dtype": dtype}
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), **fk))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), **fk))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), **fk))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), **fk))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, **fk))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **fk)
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), **fk))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), **fk))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                           None if attn_mask is None else attn_mask.dtype,
                                           "attn_mask", query.dtype)
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        is_batched = query.dim() == 3
        if self.batch_first and is_batched:  # keeps query/key/value identity, as PyTorch does
            same_qk, same_kv = query is key, key is value
            key = key.transpose(1, 0)
            query = key if same_qk and same_kv else query.transpose(1, 0)
            value = key if same_kv else value.transpose(1, 0)
        out, weights = self._attention(query, key, value, key_padding_mask, need_weights,
                                       attn_mask, average_attn_weights, is_causal, is_batched)
        return (out.transpose(1, 0) if self.batch_first and is_batched else out), weights

    def _attention(self, query, key, value, key_padding_mask, need_weights, attn_mask,
                   average_attn_weights, is_causal, is_batched):
        # F.multi_head_attention_forward on (L, N, E) inputs (masks already float).
        H, E, hd = self.num_heads, self.embed_dim, self.head_dim
        if query.dim() not in (2, 3):
            raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                                 f"{query.dim()}-D query tensor")
        if key.dim() != query.dim() or value.dim() != query.dim():
            raise AssertionError(f"For {'batched (3-D)' if is_batched else 'unbatched (2-D)'} "
                                 f"`query`, expected `key` and `value` to be {query.dim()}-D but "
                                 f"found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if not is_batched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            key_padding_mask = None if key_padding_mask is None else key_padding_mask.unsqueeze(0)
        tgt_len, bsz, embed_dim = query.shape
        src_len = key.shape[0]
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                               "Transformer module method `generate_square_subsequent_mask` to "
                               "create this mask.")
        if is_causal and key_padding_mask is None and not need_weights:
            attn_mask = None
        elif key_padding_mask is not None:
            is_causal = False
        assert embed_dim == E, f"was expecting embedding dimension of {E}, but got {embed_dim}"
        b = self.in_proj_bias
        bs = (None, None, None) if b is None else b.chunk(3)
        if not self._qkv_same_embed_dim:
            assert key.shape[:2] == value.shape[:2], (f"key's sequence and batch dims "
                                                      f"{key.shape[:2]} do not match value's "
                                                      f"{value.shape[:2]}")
            ws = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        else:
            assert key.shape == value.shape, \
                f"key shape {key.shape} does not match value shape {value.shape}"
            ws = self.in_proj_weight.chunk(3)
        # _in_projection_packed: one matmul for self-attention, one for k|v when key is value.
        if self._qkv_same_embed_dim and key is value and query is key:
            qkv = F.linear(query, self.in_proj_weight, b)
            q, k, v = (t.contiguous() for t in qkv.chunk(3, dim=-1))
        elif self._qkv_same_embed_dim and key is value:
            q = F.linear(query, ws[0], bs[0])
            kv = F.linear(key, self.in_proj_weight[E:], None if b is None else b[E:])
            k, v = (t.contiguous() for t in kv.chunk(2, dim=-1))
        else:
            q, k, v = (F.linear(x, w, bb) for x, w, bb in zip((query, key, value), ws, bs))
        if attn_mask is not None:
            if attn_mask.dim() == 2:
                if tuple(attn_mask.shape) != (tgt_len, src_len):
                    raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                                       f"should be {(tgt_len, src_len)}.")
                attn_mask = attn_mask.unsqueeze(0)
            elif attn_mask.dim() == 3:
                if tuple(attn_mask.shape) != (bsz * H, tgt_len, src_len):
                    raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but "
                                       f"should be {(bsz * H, tgt_len, src_len)}.")
            else:
                raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
        if self.bias_k is not None and self.bias_v is not None:
            k = torch.cat([k, self.bias_k.repeat(1, bsz, 1)])
            v = torch.cat([v, self.bias_v.repeat(1, bsz, 1)])
        q, k, v = (t.view(t.shape[0], bsz * H, hd).transpose(0, 1) for t in (q, k, v))
        if self.add_zero_attn:
            k = torch.cat([k, torch.zeros((bsz * H, 1, hd), dtype=k.dtype, device=k.device)], dim=1)
            v = torch.cat([v, torch.zeros((bsz * H, 1, hd), dtype=v.dtype, device=v.device)], dim=1)
        pad = (0, int(self.bias_k is not None) + int(self.add_zero_attn))  # a 0 column for each
        attn_mask, key_padding_mask = (m if m is None or not pad[1] else F.pad(m, pad)
                                       for m in (attn_mask, key_padding_mask))
        src_len = k.size(1)
        if key_padding_mask is not None:
            assert tuple(key_padding_mask.shape) == (bsz, src_len), (f"expecting key_padding_mask "
                f"shape of {(bsz, src_len)}, but got {key_padding_mask.shape}")
            key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(
                -1, H, -1, -1).reshape(bsz * H, 1, src_len)
            attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
        dropout_p = self.dropout if self.training else 0.0
        if need_weights:
            # PyTorch: softmax(baddbmm(mask, q * sqrt(1/hd), k^T)); baddbmm spelt bmm + add.
            weights = torch.bmm(q * math.sqrt(1.0 / float(hd)), k.transpose(-2, -1))
            if attn_mask is not None:
                weights = attn_mask + weights
            weights = F.softmax(weights, dim=-1)
            if dropout_p > 0.0:
                weights = F.dropout(weights, p=dropout_p)
            out = torch.bmm(weights, v).transpose(0, 1).contiguous().view(tgt_len * bsz, E)
            out = F.linear(out, self.out_proj.weight, self.out_proj.bias).view(tgt_len, bsz, E)
            weights = weights.view(bsz, H, tgt_len, src_len)
            if average_attn_weights:
                weights = weights.mean(dim=1)
            return (out, weights) if is_batched else (out.squeeze(1), weights.squeeze(0))
        if attn_mask is not None:
            attn_mask = (attn_mask.unsqueeze(0) if attn_mask.size(0) == 1 and attn_mask.dim() == 3
                         else attn_mask.view(bsz, H, -1, src_len))
        q, k, v = (t.view(bsz, H, t.shape[1], hd) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
        out = out.permute(2, 0, 1, 3).contiguous().view(bsz * tgt_len, E)
        out = F.linear(out, self.out_proj.weight, self.out_proj.bias).view(tgt_len, bsz, E)
        return (out if is_batched else out.squeeze(1)), None
