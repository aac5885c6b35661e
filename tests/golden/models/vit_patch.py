# DropPath draws its mask with uniform_() < p and the encoder block's nn.MultiheadAttention is
# script-defined (Kiln has neither Tensor.bernoulli_ nor nn.MultiheadAttention yet).
# ViT-style model (timm VisionTransformer layout), tiny sizes, deterministic weights:
# PatchEmbed (Conv2d with kernel = stride = patch, flatten(2).transpose(1, 2)), cls token and
# position embedding as nn.Parameters, pre-norm encoder blocks (LayerNorm, qkv attention via
# F.scaled_dot_product_attention or written out, LayerScale, DropPath, GELU MLP), cls pooling,
# head. A torchvision-style encoder block with nn.MultiheadAttention(batch_first=True) loaded
# with the same weights must agree with the written-out attention. Each model runs eagerly,
# under backend="eager", a counting backend and the default (inductor) backend.
# Recorded with PyTorch 2.3.1 (the specification), which records each torch.nn layer as one
# call_module node; PyTorch 2.11 inlines every nn.Module call, so its three "call nodes" lines
# are larger.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def to_2tuple(x):
    return x if isinstance(x, tuple) else (x, x)


class PatchEmbed(nn.Module):
    def __init__(self, img_size=16, patch_size=4, in_chans=3, embed_dim=16, norm_layer=None):
        super().__init__()
        self.img_size = to_2tuple(img_size)
        self.patch_size = to_2tuple(patch_size)
        self.grid_size = tuple(s // p for s, p in zip(self.img_size, self.patch_size))
        self.num_patches = self.grid_size[0] * self.grid_size[1]
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = norm_layer(embed_dim) if norm_layer else nn.Identity()

    def forward(self, x):
        B, C, H, W = x.shape
        assert H == self.img_size[0], f"Input height ({H}) doesn't match model ({self.img_size[0]})."
        assert W == self.img_size[1], f"Input width ({W}) doesn't match model ({self.img_size[1]})."
        x = self.proj(x).flatten(2).transpose(1, 2)  # B, N, C
        return self.norm(x)


class Attention(nn.Module):
    def __init__(self, dim, num_heads=2, qkv_bias=True, attn_drop=0.0, proj_drop=0.0,
                 fused_attn=True):
        super().__init__()
        assert dim % num_heads == 0, "dim should be divisible by num_heads"
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.fused_attn = fused_attn
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.q_norm = nn.Identity()
        self.k_norm = nn.Identity()
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q, k = self.q_norm(q), self.k_norm(k)
        if self.fused_attn:
            x = F.scaled_dot_product_attention(
                q, k, v, dropout_p=self.attn_drop.p if self.training else 0.0)
        else:
            q = q * self.scale
            attn = q @ k.transpose(-2, -1)
            attn = attn.softmax(dim=-1)
            attn = self.attn_drop(attn)
            x = attn @ v
        x = x.transpose(1, 2).reshape(B, N, C)
        x = self.proj(x)
        x = self.proj_drop(x)
        return x


class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__()
        self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma


def drop_path(x, drop_prob=0.0, training=False, scale_by_keep=True):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = (x.new_empty(shape).uniform_() < keep_prob).to(x.dtype)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0, scale_by_keep=True):
        super().__init__()
        self.drop_prob = drop_prob
        self.scale_by_keep = scale_by_keep

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training, self.scale_by_keep)

    def extra_repr(self):
        return f"drop_prob={round(self.drop_prob, 3):0.3f}"


class Mlp(nn.Module):
    def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=nn.GELU,
                 drop=0.0):
        super().__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.act = act_layer()
        self.drop1 = nn.Dropout(drop)
        self.norm = nn.Identity()
        self.fc2 = nn.Linear(hidden_features, out_features)
        self.drop2 = nn.Dropout(drop)

    def forward(self, x):
        x = self.fc1(x)
        x = self.act(x)
        x = self.drop1(x)
        x = self.norm(x)
        x = self.fc2(x)
        x = self.drop2(x)
        return x


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=4.0, qkv_bias=True, init_values=None,
                 drop_path=0.0, norm_layer=nn.LayerNorm, fused_attn=True):
        super().__init__()
        self.norm1 = norm_layer(dim)
        self.attn = Attention(dim, num_heads=num_heads, qkv_bias=qkv_bias, fused_attn=fused_attn)
        self.ls1 = LayerScale(dim, init_values=init_values) if init_values else nn.Identity()
        self.drop_path1 = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()
        self.norm2 = norm_layer(dim)
        self.mlp = Mlp(in_features=dim, hidden_features=int(dim * mlp_ratio))
        self.ls2 = LayerScale(dim, init_values=init_values) if init_values else nn.Identity()
        self.drop_path2 = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()

    def forward(self, x):
        x = x + self.drop_path1(self.ls1(self.attn(self.norm1(x))))
        x = x + self.drop_path2(self.ls2(self.mlp(self.norm2(x))))
        return x


class VisionTransformer(nn.Module):
    def __init__(self, img_size=16, patch_size=4, in_chans=3, num_classes=5, embed_dim=16,
                 depth=2, num_heads=2, mlp_ratio=2.0, init_values=None, drop_path_rate=0.0,
                 fused_attn=True):
        super().__init__()
        self.num_classes = num_classes
        self.num_features = self.embed_dim = embed_dim
        self.num_prefix_tokens = 1
        self.patch_embed = PatchEmbed(img_size, patch_size, in_chans, embed_dim)
        num_patches = self.patch_embed.num_patches
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches + 1, embed_dim) * 0.02)
        self.pos_drop = nn.Dropout(p=0.0)
        dpr = [x.item() for x in torch.linspace(0, drop_path_rate, depth)]
        self.blocks = nn.Sequential(*[
            Block(embed_dim, num_heads, mlp_ratio, init_values=init_values, drop_path=dpr[i],
                  fused_attn=fused_attn)
            for i in range(depth)])
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)
        self.head = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def forward_features(self, x):
        x = self.patch_embed(x)
        x = torch.cat((self.cls_token.expand(x.shape[0], -1, -1), x), dim=1)
        x = x + self.pos_embed
        x = self.pos_drop(x)
        x = self.blocks(x)
        x = self.norm(x)
        return x

    def forward_head(self, x, pre_logits=False):
        x = x[:, 0]
        return x if pre_logits else self.head(x)

    def forward(self, x):
        x = self.forward_features(x)
        x = self.forward_head(x)
        return x


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, batch_first=False):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = nn.Parameter(torch.empty(3 * embed_dim, embed_dim))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * embed_dim))
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, query, key, value, need_weights=True):
        B, N, C = query.shape
        q, k, v = F.linear(query, self.in_proj_weight, self.in_proj_bias).chunk(3, dim=-1)
        q, k, v = [t.view(B, N, self.num_heads, self.head_dim).transpose(1, 2) for t in (q, k, v)]
        x = F.scaled_dot_product_attention(q, k, v)
        x = x.transpose(1, 2).reshape(B, N, C)
        return self.out_proj(x), None

    def __repr__(self):
        return ("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear("
                f"in_features={self.embed_dim}, out_features={self.embed_dim}, bias=True)\n)")


class TVEncoderBlock(nn.Module):
    # torchvision.models.vision_transformer.EncoderBlock
    def __init__(self, num_heads, hidden_dim, mlp_dim, dropout=0.0, attention_dropout=0.0):
        super().__init__()
        self.num_heads = num_heads
        self.ln_1 = nn.LayerNorm(hidden_dim, eps=1e-6)
        self.self_attention = MultiheadAttention(hidden_dim, num_heads,
                                                    dropout=attention_dropout, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.ln_2 = nn.LayerNorm(hidden_dim, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(hidden_dim, mlp_dim), nn.GELU(), nn.Dropout(dropout),
                                 nn.Linear(mlp_dim, hidden_dim), nn.Dropout(dropout))

    def forward(self, input):
        assert input.dim() == 3, (
                      f"Expected (batch_size, seq_length, hidden_dim) got {input.shape}")
        x = self.ln_1(input)
        x, _ = self.self_attention(x, x, x, need_weights=False)
        x = self.dropout(x)
        x = x + input
        y = self.ln_2(x)
        y = self.mlp(y)
        return x + y


def deterministic_init(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            t = torch.arange(p.numel(), dtype=torch.float32)
            if "norm" in name and name.endswith("weight"):
                p.copy_(1.0 + 0.1 * torch.cos(t * 0.5 + i))
            elif p.dim() > 1 and p.shape[0] > 1:
                fan_in = p[0].numel()
                p.copy_((torch.sin(t * 0.37 + i) * (1.5 / math.sqrt(fan_in))).view(p.shape))
            else:
                p.copy_((0.05 * torch.sin(t * 0.3 + i)).view(p.shape))


def r4(v):
    return round(float(v), 4)


graphs = []


def counting(gm, example_inputs):
    graphs.append(sum(1 for n in gm.graph.nodes
                      if n.op in ("call_function", "call_method", "call_module")))
    return gm.forward


def check_backends(label, model, *inputs):
    with torch.no_grad():
        ref = model(*inputs)
        for name in ("eager", "counting", "inductor"):
            torch._dynamo.reset()
            graphs.clear()
            if name == "counting":
                compiled = torch.compile(model, backend=counting)
            elif name == "eager":
                compiled = torch.compile(model, backend="eager")
            else:
                compiled = torch.compile(model)
            a = compiled(*inputs)
            b = compiled(*inputs)
            print(label, name, tuple(a.shape), torch.allclose(a, ref, atol=1e-5),
                  torch.allclose(b, ref, atol=1e-5))
            if name == "counting":
                print(label, "graphs:", len(graphs), "call nodes:", graphs)
    return ref


x = torch.sin(torch.arange(2 * 3 * 16 * 16, dtype=torch.float32) * 0.05).view(2, 3, 16, 16)

model = VisionTransformer()
deterministic_init(model)
model.eval()
print("params:", sum(p.numel() for p in model.parameters()), len(list(model.named_parameters())))
print([n for n, _ in model.named_parameters()][:6])
print(model.patch_embed)
print(model.blocks[0].attn)
print("grid", model.patch_embed.grid_size, "patches", model.patch_embed.num_patches)
with torch.no_grad():
    tokens = model.patch_embed(x)
    feats = model.forward_features(x)
    out = model(x)
print("tokens:", tuple(tokens.shape), tokens.is_contiguous(), tokens.stride())
print("features:", tuple(feats.shape), r4(feats.sum()), r4(feats[:, 0].abs().mean()))
print("logits:", tuple(out.shape), [r4(v) for v in out[0].tolist()])
print("argmax:", out.argmax(-1).tolist())

manual = VisionTransformer(fused_attn=False)
manual.load_state_dict(model.state_dict())
manual.eval()
with torch.no_grad():
    print("manual attention matches sdpa:", torch.allclose(manual(x), out, atol=1e-5))
check_backends("vit", model, x)
check_backends("vit-manual", manual, x)

# LayerScale + DropPath variant: eval is deterministic; train mode only shapes/finiteness.
ls_model = VisionTransformer(init_values=0.1, drop_path_rate=0.2)
deterministic_init(ls_model)
print(ls_model.blocks[1].drop_path1, type(ls_model.blocks[0].drop_path1).__name__)
ls_model.eval()
check_backends("vit-ls", ls_model, x)
ls_model.train()
torch.manual_seed(0)
y = torch.compile(ls_model, backend="eager")(x)
print("train:", tuple(y.shape), bool(torch.isfinite(y).all()), y.requires_grad)

# torchvision-style block with nn.MultiheadAttention, loaded from timm-style Block weights.
blk = model.blocks[0]
tv = TVEncoderBlock(num_heads=2, hidden_dim=16, mlp_dim=32)
print(tv.self_attention)
print([n for n, _ in tv.self_attention.named_parameters()])
with torch.no_grad():
    tv.ln_1.weight.copy_(blk.norm1.weight)
    tv.ln_1.bias.copy_(blk.norm1.bias)
    tv.ln_2.weight.copy_(blk.norm2.weight)
    tv.ln_2.bias.copy_(blk.norm2.bias)
    tv.self_attention.in_proj_weight.copy_(blk.attn.qkv.weight)
    tv.self_attention.in_proj_bias.copy_(blk.attn.qkv.bias)
    tv.self_attention.out_proj.weight.copy_(blk.attn.proj.weight)
    tv.self_attention.out_proj.bias.copy_(blk.attn.proj.bias)
    tv.mlp[0].weight.copy_(blk.mlp.fc1.weight)
    tv.mlp[0].bias.copy_(blk.mlp.fc1.bias)
    tv.mlp[3].weight.copy_(blk.mlp.fc2.weight)
    tv.mlp[3].bias.copy_(blk.mlp.fc2.bias)
    blk.norm1.eps = 1e-6
    blk.norm2.eps = 1e-6
tv.eval()
seq = feats.detach()
with torch.no_grad():
    ref = blk(seq)
    got = tv(seq)
print("MultiheadAttention block matches:", tuple(got.shape), torch.allclose(got, ref, atol=1e-5))
check_backends("tv-block", tv, seq)
